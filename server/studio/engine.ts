// The studio engine: makes one planned output from a task's photos on this machine's CPU. Each
// photo is cut out once per task and shared by every output that uses it.
import type { Locale } from '../../contract/locales';
import type { Background, Category, CreativeScene, ProductPreset, ShoeView } from '../../contract/enums';
import type { ShoeParamsPayload } from '../../contract/selection';
import { cutOut, NoShoeFound, type Cutout } from './segment';
import { colourCard, multiAngleCard, poster, productShot, stillLife, type Rendered, type ViewCutout } from './layouts';
import { paramsLine } from './copy';
import { creativeVideo } from './video';

/** An output that cannot be made; `key` is a message key, refunded and shown to the seller. */
export class OutputFailed extends Error {
  constructor(
    readonly key: string,
    readonly vars: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'OutputFailed';
  }
}

export interface OutputRequest {
  category: Category;
  background: Background | null;
  creativeScene: CreativeScene | null;
  /** PRODUCT: the view this output is made from. */
  view: ShoeView | null;
  /** PRODUCT: the look (a studio shot when absent). */
  preset: ProductPreset | null;
  description: string | null;
  shoeParams: ShoeParamsPayload;
  locale: Locale;
}

export interface TaskPhotos {
  /** The task's photos by view, in the guided order. */
  views: readonly ShoeView[];
  bytes(view: ShoeView): Promise<Buffer>;
}

export interface Engine {
  make(request: OutputRequest, photos: TaskPhotos): Promise<Rendered>;
}

export interface StudioOptions {
  ffmpeg: string | null;
}

/** A studio engine for one task: cut-outs are made once and reused by each of its outputs. */
export function studioEngine(options: StudioOptions): Engine {
  const cutouts = new Map<ShoeView, Promise<Cutout>>();
  const cutoutOf = (photos: TaskPhotos, view: ShoeView) => {
    let pending = cutouts.get(view);
    if (!pending) {
      pending = photos.bytes(view).then(cutOut);
      cutouts.set(view, pending);
    }
    return pending;
  };
  const all = async (photos: TaskPhotos): Promise<ViewCutout[]> => {
    const views = photos.views.filter((view) => view !== 'bottom');
    return Promise.all(views.map(async (view) => ({ view, cutout: await cutoutOf(photos, view) })));
  };
  return {
    async make(request, photos) {
      try {
        switch (request.category) {
          case 'PRODUCT':
            return await productShot(await cutoutOf(photos, request.view ?? photos.views[0]!), request.preset);
          case 'PRODUCT2':
            return await multiAngleCard(await all(photos), request.locale);
          case 'POSTER':
            return await poster(await all(photos), { headline: request.description, details: paramsLine(request.locale, request.shoeParams) }, request.locale);
          case 'OUTFIT_STILL_LIFE':
            return await stillLife(await all(photos));
          case 'OUTFIT_COLOR':
            return await colourCard(await all(photos), request.locale);
          case 'CREATIVE_VIDEO':
            if (!options.ffmpeg || !request.creativeScene || request.creativeScene === 'CUSTOM') break;
            return await creativeVideo(options.ffmpeg, await all(photos), request.creativeScene);
          default:
            break;
        }
      } catch (error) {
        if (error instanceof NoShoeFound) throw new OutputFailed('SUBJECT_MISSING');
        throw error;
      }
      // Routing never sends the studio engine what it cannot make; refuse rather than pretend.
      throw new OutputFailed('GENERATION_FAILED');
    },
  };
}
