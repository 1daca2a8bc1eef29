// The studio's cut-out on phone photos as sellers take them (tests/fixtures/phone-shoes.ts): an
// uneven wall swept into the floor, shadows, white on white, black on grey, gloss and patent, lace
// loops, grain, JPEG noise, tilt and the six guided views. These pictures are drawn by the project:
// they test the parts (the mask's IoU, the halo its edge keeps, the shadow it keeps, the photo
// check passing them), never the promise; the figures on real photos are `npm run bench -- studio`.
import { beforeAll, describe, expect, it } from 'vitest';
import { INSEPARABLE, PHONE_CASES, phoneShoePhoto, scoreCutout, type CutoutScore } from '../fixtures/phone-shoes';
import { cutOut } from '../../server/studio/segment';
import { analysePhoto, refusal } from '../../server/materials/findings';
import { translate } from '../../server/lib/i18n';

const scores: (CutoutScore & { name: string })[] = [];
const photos = new Map<string, Buffer>();

beforeAll(async () => {
  for (const { name, options } of PHONE_CASES) {
    const photo = await phoneShoePhoto(options);
    photos.set(name, photo.jpeg);
    scores.push({ name, ...(await scoreCutout(photo, await cutOut(photo.jpeg))) });
  }
  // Two dozen segmentations: sized for a busy machine (they took 400 s under a load of 8–12).
}, 1_500_000);

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const table = (key: keyof CutoutScore) => scores.map((s) => `${s.name}: ${s[key].toFixed(3)}`).join('\n');

describe('the cut-out of a phone photo', () => {
  it('is made from at least 24 photos, the six guided views among them', () => {
    expect(scores.length).toBeGreaterThanOrEqual(24);
    for (const view of ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom']) {
      expect(PHONE_CASES.some((c) => c.options.view === view)).toBe(true);
    }
  });

  it('matches the shoe: mean IoU ≥ 0.97 and none below 0.94', () => {
    const ious = scores.map((s) => s.iou);
    expect(mean(ious), table('iou')).toBeGreaterThanOrEqual(0.97);
    expect(Math.min(...ious), table('iou')).toBeGreaterThanOrEqual(0.94);
  });

  it('keeps no halo of the old background on its edge', () => {
    // ΔE is OKLab × 100 (about 2 is a just-noticeable difference), on every pixel the cut-out
    // shows within 3 px of its edge, its soft edge included, against the shoe's own colour there.
    // The photo's grain and JPEG noise alone put a faithful edge at 3–4 (the white shoes on white,
    // where the backdrop's colour is the shoe's and mixing changes little); 6 on average and 8 at
    // most leave room for that and not for a fringe. Without the backdrop's share taken out, the
    // same ring (the photo's own pixels there) is half as far off again on average.
    const halos = scores.map((s) => s.halo);
    // A patent boot mirroring the room has the room's colours in its own edge: it keeps most.
    expect(mean(halos), table('halo')).toBeLessThanOrEqual(6);
    expect(Math.max(...halos), table('halo')).toBeLessThanOrEqual(14);
    expect(mean(scores.map((s) => s.rawHalo)), table('rawHalo')).toBeGreaterThanOrEqual(1.5 * mean(halos));
    // (Not the patent boot: it mirrors the room, so its edge is the room's colour either way.)
    const dark = scores.filter((s) => /black boot|tan|olive sneaker, (back|bottom)/.test(s.name));
    // A dark shoe's edge on a light backdrop, where the backdrop's share shows most: at least half as far again.
    for (const s of dark) expect(s.rawHalo, s.name).toBeGreaterThanOrEqual(1.5 * s.halo);
  });

  it('leaves the floor’s shadow out, cast and contact', () => {
    // Shadow pixels more than 3 px from the shoe (its outline's own error lies within that).
    const kept = scores.map((s) => s.shadowKept);
    expect(mean(kept), table('shadowKept')).toBeLessThanOrEqual(0.02);
    // Seen from below, a white sole's own shade on cream is the one case where some of it is kept.
    expect(Math.max(...kept), table('shadowKept')).toBeLessThanOrEqual(0.16);
  });
});

describe('the photo check on phone photos', () => {
  it('passes every one of them', async () => {
    const refused: string[] = [];
    for (const [name, jpeg] of photos) {
      const reason = refusal(await analysePhoto(jpeg));
      if (reason) refused.push(`${name}: ${reason}`);
    }
    expect(refused).toEqual([]);
  }, 300_000);

  it('refuses a white shoe on a sheet of its own colour in flat light, which the network only half-sees, saying what to shoot it on', async () => {
    for (const view of ['right_side', 'right_45', 'front'] as const) {
      const findings = await analysePhoto((await phoneShoePhoto({ ...INSEPARABLE, view })).jpeg);
      expect(refusal(findings), view).toBe('SUBJECT_LOW_CONTRAST');
      expect(findings.find((f) => f.check === 'subject'), view).toMatchObject({ ok: false, verdict: 'SUBJECT_LOW_CONTRAST' });
    }
    expect(translate('en', 'SUBJECT_LOW_CONTRAST')).toMatch(/darker or coloured background/);
  }, 120_000);
});
