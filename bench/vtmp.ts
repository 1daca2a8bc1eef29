import { shoePhoto } from '/work/main/tests/fixtures/shoes';
import { cutOut } from '/work/main/server/studio/segment';
import { creativeVideo, locateFfmpeg, SCENES } from '/work/main/server/studio/video';
const views: any[] = [];
const SIX = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'];
for (const [i, view] of SIX.entries()) {
  const photo = await shoePhoto({ seed: 3 + i });
  views.push({ view, cutout: await cutOut(photo.jpeg) });
}
const ffmpeg = locateFfmpeg(undefined)!;
const only = process.argv[2];
for (const scene of Object.keys(SCENES)) {
  if (only && scene !== only) continue;
  const t0 = performance.now();
  const v = await creativeVideo(ffmpeg, views, scene as any);
  console.log(scene, ((performance.now() - t0) / 1000).toFixed(2), 's', v.bytes.length);
}
