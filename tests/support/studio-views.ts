// The five views of one drawn shoe, cut out by the studio: what the studio's tests render their
// cards, posters, stills and videos from. One set for all of them, so each view's segmentation
// (seconds of both cores) is made once in a run and read back from the shared answers after.
import { shoePhoto } from '../fixtures/shoes';
import { FIVE_VIEWS } from '../fixtures/views';
import { cutOut } from '../../server/studio/segment';
import type { ViewCutout } from '../../server/studio/layouts';

/** A brown-red leather shoe, one seed per view. */
const studioViewPhoto = (i: number) => shoePhoto({ width: 1400, height: 1050, seed: i + 1, colour: [150, 60, 40] });

export async function studioViews(): Promise<ViewCutout[]> {
  const views: ViewCutout[] = [];
  for (const [i, view] of FIVE_VIEWS.entries()) views.push({ view, cutout: await cutOut((await studioViewPhoto(i)).jpeg) });
  return views;
}
