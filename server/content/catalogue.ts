// Which engine makes each option, and what the configured engines can offer (DESIGN §4
// Engines): the studio engine makes product shots, cards, posters, outfit cards and themed
// videos on this machine; model photos, custom scenes and custom videos need an AI engine — the
// remote OpenAI-compatible one or the operator's ComfyUI. ENGINE_ROUTES may send a category to
// another engine for the options that engine can make. GET /content/config is derived from this,
// and generate refuses what it rules out.
import type { Background, Category, CreativeScene } from '../../contract/enums';
import { CATEGORIES } from '../../contract/enums';
import { ENGINE_NAMES, type ContentCatalogue } from '../../contract/content';
import { DEFAULT_PRICES, CATEGORIES_OF, contentModuleOf, subOptionsOf, type Prices } from '../../contract/selection';
import type { Locale } from '../../contract/locales';
import { translate, type MessageKey } from '../lib/i18n';

export type EngineName = (typeof ENGINE_NAMES)[number];

/** ENGINE_ROUTES: the engine a category is sent to. */
export type EngineRoutes = Partial<Record<Category, EngineName>>;

export interface EngineSupport {
  /** The remote engine can make images (model photos, custom backgrounds and scenes). */
  aiImages: boolean;
  /** The remote engine can make videos (custom creative scenes). */
  aiVideo: boolean;
  /** ffmpeg was found, so the studio engine can make videos. */
  ffmpeg: boolean;
  /** A ComfyUI server is configured: model photos, and custom scenes where routed. */
  comfyui: boolean;
  routes: EngineRoutes;
}

/** What one config entry asks for. */
export interface OptionRequest {
  category: Category;
  background?: Background | undefined;
  creativeScene?: CreativeScene | undefined;
  custom: boolean;
}

export type Routing = { engine: EngineName } | { engine: null; reason: MessageKey };

const PERSON: readonly Category[] = CATEGORIES_OF.person;

/**
 * The categories a route may send to each engine: those it can make at least one option of. A
 * route elsewhere is refused at start-up (the studio engine never draws a person; ComfyUI makes
 * no video and no card).
 */
export const ROUTABLE: Record<EngineName, readonly Category[]> = {
  studio: CATEGORIES.filter((category) => !PERSON.includes(category)),
  remote: [...PERSON, 'CREATIVE_VIDEO'],
  comfyui: [...PERSON, 'PRODUCT', 'POSTER'],
};

const isVideo = (option: OptionRequest) => option.category === 'CREATIVE_VIDEO';
const customVideo = (option: OptionRequest) => option.custom || option.creativeScene === 'CUSTOM';

/** Whether `engine`, as configured here, can make the option. */
function canMake(engine: EngineName, option: OptionRequest, support: EngineSupport): boolean {
  switch (engine) {
    case 'studio':
      // The studio engine sets a poster's copy from the description; other studio layouts have
      // no place for one, so a custom description there would be a promise it cannot keep.
      if (PERSON.includes(option.category)) return false;
      if (isVideo(option)) return support.ffmpeg && !customVideo(option);
      return !option.custom || option.category === 'POSTER';
    case 'remote':
      if (PERSON.includes(option.category)) return support.aiImages;
      return isVideo(option) && support.aiVideo;
    case 'comfyui':
      // A custom PRODUCT or POSTER scene is painted around the shoe only where routed here.
      if (PERSON.includes(option.category)) return support.comfyui;
      return support.comfyui && option.custom && support.routes[option.category] === 'comfyui';
  }
}

/** Who makes an option no route sends elsewhere, in order of preference. */
const DEFAULT_ORDER: readonly EngineName[] = ['studio', 'remote', 'comfyui'];

function whyNot(option: OptionRequest, support: EngineSupport): MessageKey {
  if (PERSON.includes(option.category)) return 'NEEDS_AI_IMAGES';
  if (isVideo(option)) return customVideo(option) || support.ffmpeg ? 'NEEDS_AI_VIDEO' : 'NEEDS_FFMPEG';
  return 'CUSTOM_NOT_FOR_CATEGORY';
}

/** The engine that makes this option, or why none can. */
export function routeOption(option: OptionRequest, support: EngineSupport): Routing {
  const routed = support.routes[option.category];
  if (routed && canMake(routed, option, support)) return { engine: routed };
  const engine = DEFAULT_ORDER.find((name) => canMake(name, option, support));
  return engine ? { engine } : { engine: null, reason: whyNot(option, support) };
}

/** The engines configured here: the studio engine always, the AI engines when set. */
export function configuredEngines(support: EngineSupport): EngineName[] {
  return ENGINE_NAMES.filter((name) => name === 'studio' || (name === 'remote' ? support.aiImages : support.comfyui));
}

function availability(routing: Routing, locale: Locale) {
  return routing.engine ? { available: true, reason: null } : { available: false, reason: translate(locale, routing.reason) };
}

/** Every option a category offers: the category itself, each sub-option, and its custom card. */
function optionsOf(category: Category) {
  const isPerson = PERSON.includes(category);
  const customSub = isPerson || category === 'CREATIVE_VIDEO' ? ['CUSTOM' as const] : [];
  const subs = [...subOptionsOf(category), ...customSub].map((value) => {
    const custom = value === 'CUSTOM';
    const option: OptionRequest = isPerson
      ? { category, background: value as Background, custom }
      : category === 'CREATIVE_VIDEO'
        ? { category, creativeScene: value as CreativeScene, custom }
        : { category, custom };
    return { value, option };
  });
  return { base: { category, custom: false }, subs, custom: { category, custom: true } };
}

/** Every category with its price, sub-options and custom card, available or with the reason why not. */
export function catalogue(support: EngineSupport, locale: Locale, prices: Prices = DEFAULT_PRICES): ContentCatalogue {
  const makes = new Map<EngineName, Set<Category>>(configuredEngines(support).map((name) => [name, new Set()]));
  const route = (option: OptionRequest) => {
    const routing = routeOption(option, support);
    if (routing.engine) makes.get(routing.engine)?.add(option.category);
    return availability(routing, locale);
  };
  const categories = CATEGORIES.map((category) => {
    const options = optionsOf(category);
    return {
      category,
      content_module: contentModuleOf(category),
      price: prices[category],
      ...route(options.base),
      sub_options: options.subs.map(({ value, option }) => ({ value, ...route(option) })),
      custom: route(options.custom),
    };
  });
  return {
    categories,
    engines: [...makes].map(([name, made]) => ({ name, categories: CATEGORIES.filter((category) => made.has(category)) })),
  };
}
