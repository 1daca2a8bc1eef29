// sharp, loaded on first use: its native library costs start-up time every server pays, while only
// photo uploads need it. Configured once (DESIGN §6: concurrency 2, no cache).
import type sharpModule from 'sharp';

let loading: Promise<typeof sharpModule> | undefined;

export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(2);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
