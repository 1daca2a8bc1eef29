// Shots made the way the guided camera makes them (a 640 px video frame scaled up to a square
// photo, so the grain comes in blotches), at grain from none to a very dim room's, in bright, dim
// and uneven light, and the unusable ones with the verdict each must be refused for.
import { shoePhoto, type ShoeFixtureOptions } from '../fixtures/shoes';
import type { Verdict } from '../../server/materials/findings';
import { cleanImage } from '../../server/materials/inspect';

/** Standard deviation of the grain on 0–255: none, a bright room … a very dim one. */
export const GRAINS = [0, 8, 16, 24, 32];
export const LIGHTS: Record<string, ShoeFixtureOptions> = {
  bright: {},
  dim: { exposure: 0.72 },
  uneven: { exposure: 0.95, light: 'uneven' },
};
export const UNUSABLE: Record<string, { options: ShoeFixtureOptions; reason: Verdict }> = {
  'too dark': { options: { exposure: 0.2 }, reason: 'EXPOSURE_DARK' },
  blurred: { options: { blur: 6 }, reason: 'SHARPNESS_BLURRY' },
};

/** A guided-camera shot: a square scaled up from a 640 px video frame. */
export const cameraShot = async (options: ShoeFixtureOptions) =>
  (await shoePhoto({ width: 1280, height: 1280, upscale: 2, seed: 5 + (options.grain ?? 0), ...options })).jpeg;

/**
 * The shot as the server keeps it once uploaded (re-encoded by the intake's clean-up), which is what
 * the photo check reads: the same bytes verify-angle checks in grain.test.ts, so the network's
 * answer for a shot is made once in a run.
 */
export const storedShot = async (options: ShoeFixtureOptions) => (await cleanImage(await cameraShot(options), 'image/jpeg')).bytes;

export const cases = (placement: 'centred' | 'cut') =>
  Object.entries(LIGHTS).flatMap(([light, options]) => GRAINS.map((grain) => ({ light, grain, options: { ...options, grain, placement } })));
