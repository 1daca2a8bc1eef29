// The photo check against a phone's grain and a room's light (issue 16 §2c), in three files that
// run side by side, each case a run of the segmentation network: a centred shoe with wide margins
// passes at every level (grain-check-centred); a shoe that crosses the frame's edge is cut off at
// every level (grain-check-cut); a dark or blurred shot is refused at every level, and a busy
// background is advice, never the reason a shot is refused (grain-check-refusals). The check
// alone, with no database: verify-angle and the intake on the same shots are grain.test.ts.
// This file: the dark, blurred, black and busy shots.
import { describe, expect, it } from 'vitest';
import { GRAINS, storedShot, UNUSABLE } from '../support/camera-shots';
import { analysePhoto, refusal } from '../../server/materials/findings';

// Each case runs the segmentation network: seconds of both cores, and minutes on a busy machine.
describe('the photo check at every grain level and light', { timeout: 300_000 }, () => {
  it.each(Object.entries(UNUSABLE).flatMap(([name, { options, reason }]) => GRAINS.map((grain) => ({ name, grain, options: { ...options, grain }, reason }))))(
    'refuses a shot $name: grain $grain',
    async ({ options, reason }) => {
      expect(refusal(await analysePhoto(await storedShot(options)))).toBe(reason);
    },
  );

  it('takes a black shoe in a lit frame as well exposed, and the same shoe in a frame a fifth as bright as dark', async () => {
    const exposure = async (options: { exposure?: number }) => (await analysePhoto(await storedShot({ colour: [3, 3, 4], ...options }))).find((f) => f.check === 'exposure')!;
    const lit = await exposure({});
    // The shoe itself is as dark as the dark shot's would be: only the frame tells them apart.
    expect(lit.value).toBeLessThan(22);
    expect(lit).toMatchObject({ ok: true, verdict: 'EXPOSURE_OK' });
    expect(await exposure({ exposure: 0.2 })).toMatchObject({ ok: false, verdict: 'EXPOSURE_DARK' });
  });

  it.each(GRAINS)('gives a busy background as advice, never as the reason a shot is refused: grain %i', async (grain) => {
    const findings = await analysePhoto(await storedShot({ background: 'busy', grain }));
    expect(findings.find((f) => f.check === 'background')).toMatchObject({ ok: false, verdict: 'BACKGROUND_BUSY' });
    // Taken, or refused only when the network could not tell the shoe from the drawn clutter.
    expect([null, 'SUBJECT_LOW_CONTRAST']).toContain(refusal(findings));
  });
});
