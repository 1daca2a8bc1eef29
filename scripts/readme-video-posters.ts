// The README's pictures of the themed videos: each scene filmed from the phone-photo fixtures
// (one shoe's guided views) by the studio engine, its poster frame saved as
// docs/pictures/CREATIVE_VIDEO-<SCENE>.jpg, 540 px wide and at most 150 KB, with the time each
// scene took to render printed as it goes.
//
//   npx tsx scripts/readme-video-posters.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { phoneShoePhoto } from '../tests/fixtures/phone-shoes';
import { cutOut } from '../server/studio/segment';
import type { ViewCutout } from '../server/studio/layouts';
import { creativeVideo, locateFfmpeg, SCENES } from '../server/studio/video';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'pictures');
const WIDTH = 540;
const MAX_BYTES = 150_000;
const VIEWS = ['right_45', 'right_side', 'left_side', 'front', 'back'] as const;

/** The poster at the README's width, at the best JPEG quality that fits the size limit. */
async function readmePicture(poster: Buffer): Promise<Buffer> {
  const scaled = await sharp(poster).resize({ width: WIDTH }).toBuffer();
  for (let quality = 86; ; quality -= 6) {
    const jpeg = await sharp(scaled).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= MAX_BYTES || quality <= 50) return jpeg;
  }
}

async function main(): Promise<void> {
  const ffmpeg = locateFfmpeg(process.env.FFMPEG_PATH);
  if (!ffmpeg) throw new Error('ffmpeg is needed (Debian: apt-get install ffmpeg, or set FFMPEG_PATH)');
  const views: ViewCutout[] = [];
  for (const [i, view] of VIEWS.entries()) views.push({ view, cutout: await cutOut((await phoneShoePhoto({ seed: 21 + i, view })).jpeg) });
  fs.mkdirSync(OUT, { recursive: true });
  console.log('scene                 render s   poster KB');
  for (const scene of Object.keys(SCENES) as (keyof typeof SCENES)[]) {
    const started = performance.now();
    const video = await creativeVideo(ffmpeg, views, scene);
    const seconds = (performance.now() - started) / 1000;
    if (!video.poster) throw new Error(`${scene} came without a poster`);
    const picture = await readmePicture(video.poster);
    fs.writeFileSync(path.join(OUT, `CREATIVE_VIDEO-${scene}.jpg`), picture);
    console.log(`${scene.padEnd(22)}${seconds.toFixed(2).padStart(8)}${(picture.length / 1000).toFixed(0).padStart(12)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
