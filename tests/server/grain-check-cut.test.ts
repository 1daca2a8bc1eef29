// The photo check against a phone's grain and a room's light (issue 16 §2c), in three files that
// run side by side, each case a run of the segmentation network: a centred shoe with wide margins
// passes at every level (grain-check-centred); a shoe that crosses the frame's edge is cut off at
// every level (grain-check-cut); a dark or blurred shot is refused at every level, and a busy
// background is advice, never the reason a shot is refused (grain-check-refusals). The check
// alone, with no database: verify-angle and the intake on the same shots are grain.test.ts.
// This file: the shoe cut off by the frame, in every light.
import { describe, expect, it } from 'vitest';
import { cases, storedShot } from '../support/camera-shots';
import { analysePhoto } from '../../server/materials/findings';

const subjectOf = async (bytes: Buffer) => (await analysePhoto(bytes)).find((f) => f.check === 'subject')!;

// Each case runs the segmentation network: seconds of both cores, and minutes on a busy machine.
describe('the photo check at every grain level and light', { timeout: 300_000 }, () => {
  it.each(cases('cut'))('says a shoe crossing the frame’s edge is cut off: $light light, grain $grain', async ({ options }) => {
    expect(await subjectOf(await storedShot(options))).toMatchObject({ ok: false, verdict: 'SUBJECT_CUT_OFF' });
  });
});
