// Every video result has a poster frame stored with it: the studio's own, or one taken from the
// video when an engine made it without one. Task results and My materials give its address (the
// thumbnail in task history, the carousel and My materials), and deleting the result deletes it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { posterFrame, withPoster } from '../../server/studio/poster';
import { locateFfmpeg } from '../../server/studio/video';

const ffmpeg = locateFfmpeg(undefined)!;
let t: TestApp;

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

/** A 2-second 320×568 test-pattern MP4 whose frames brighten over time. */
function testVideo(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'poster-test-'));
  const file = path.join(dir, 'clip.mp4');
  const made = spawnSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x568:rate=30:duration=2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', file]);
  expect(made.status, String(made.stderr)).toBe(0);
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bytes;
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_UP_BONUS_TOKENS: '100' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a poster taken from a video', () => {
  it('is a JPEG frame at the video’s size, with the picture in it', async () => {
    const poster = await posterFrame(ffmpeg, testVideo());
    expect(poster).not.toBeNull();
    const { data, info } = await sharp(poster!).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([320, 568]);
    const stats = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).stats();
    expect(stats.channels[0]!.stdev).toBeGreaterThan(20);
  });

  it('is added only to a video that came without one', async () => {
    const video = testVideo();
    const picture = { bytes: Buffer.from('jpeg'), fileType: 'image/jpeg' as const, width: 1, height: 1 };
    expect(await withPoster(picture, ffmpeg)).toBe(picture);
    const own = { bytes: video, fileType: 'video/mp4' as const, width: 320, height: 568, poster: Buffer.from('own') };
    expect((await withPoster(own, ffmpeg)).poster).toEqual(Buffer.from('own'));
    const bare = { bytes: video, fileType: 'video/mp4' as const, width: 320, height: 568 };
    expect((await sharp((await withPoster(bare, ffmpeg)).poster!).metadata()).format).toBe('jpeg');
    expect((await withPoster(bare, null)).poster).toBeUndefined();
  });

  it('is none when the bytes are not a video', async () => {
    await expect(posterFrame(ffmpeg, Buffer.from('not a video'))).rejects.toThrow(/poster frame/);
  });
});

describe('a video result', () => {
  it('is listed with its poster in the task and My materials, and the poster goes with it', async () => {
    const vera = await signedInSeller(t, 'veraposter');
    const photos = await uploadViews(t, vera.token);
    const payload = {
      content_config: [
        { content_module: 'CREATIVE_VIDEO', category: 'CREATIVE_VIDEO', creative_scene: 'SHOE_SAND', custom_params: { shoe_params: {} }, name: 'CREATIVE_VIDEO:SHOE_SAND', selected: true },
        { content_module: 'PRODUCT_IMAGE', category: 'PRODUCT2', custom_params: { shoe_params: {} }, name: 'PRODUCT2', selected: true },
      ],
      material_ids: photos,
    };
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/content/generate', headers: { ...auth(vera.token), 'idempotency-key': `poster-${Date.now()}` }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as string;
    const deadline = Date.now() + 150_000;
    let task;
    for (;;) {
      task = (await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth(vera.token) })).json().data;
      if (!['pending', 'processing'].includes(task.status)) break;
      if (Date.now() > deadline) throw new Error(`task still ${task.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(task.status, JSON.stringify(task.outputs)).toBe('completed');
    const video = task.result.find((r: { category: string }) => r.category === 'CREATIVE_VIDEO');
    const card = task.result.find((r: { category: string }) => r.category === 'PRODUCT2');
    expect(card.poster_url).toBeNull();
    expect(video.poster_url).toEqual(expect.any(String));
    const poster = await t.app.inject({ method: 'GET', url: video.poster_url });
    expect(poster.statusCode).toBe(200);
    const meta = await sharp(poster.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1080, 1920]);

    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/content/assets?material_category=CREATIVE_VIDEO&page=1&page_size=8', headers: auth(vera.token) })).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0].poster_url).toEqual(expect.any(String));

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/v1/content/assets', headers: auth(vera.token), payload: { asset_ids: [video.id] } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: video.poster_url })).statusCode).toBe(404);
  }, 200_000);
});
