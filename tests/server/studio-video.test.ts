// The studio's ten themed videos, each made once from fixture photos and then examined the way a
// marketplace or a phone would: probed for codec, profile, size, frame rate and length, its MP4
// boxes read for fast start, its poster decoded, frames compared over time, its backdrop checked
// for banding, and the scenes compared with each other.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Rendered } from '../../server/studio/layouts';
import { creativeVideo, locateFfmpeg, SCENES } from '../../server/studio/video';
import { studioViews } from '../support/studio-views';

const SCENE_NAMES = Object.keys(SCENES) as (keyof typeof SCENES)[];
const WIDTH = 1080;
const HEIGHT = 1920;

const ffmpeg = locateFfmpeg(undefined);
const ffprobe = ffmpeg ? path.join(path.dirname(ffmpeg), 'ffprobe') : null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-video-'));
const videos = new Map<string, { rendered: Rendered; file: string }>();

/** The top-level boxes of an MP4, in file order. */
function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    else if (size === 0) size = bytes.length - at;
    if (size < 8) throw new Error(`a ${type} box of ${size} bytes at ${at}`);
    boxes.push(type);
    at += size;
  }
  return boxes;
}

const decoded = new Map<string, Buffer>();

/** One decoded frame of a video as 8-bit luma at full size (each decoded once). */
function lumaFrame(file: string, seconds: number): Buffer {
  const key = `${file}@${seconds}`;
  let frame = decoded.get(key);
  if (!frame) {
    frame = execFileSync(ffmpeg!, ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', 'format=gray', '-f', 'rawvideo', 'pipe:1'], { maxBuffer: 16 << 20 });
    decoded.set(key, frame);
  }
  expect(frame.length).toBe(WIDTH * HEIGHT);
  return frame;
}

const meanDifference = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

describe('the ten themed videos', () => {
  beforeAll(async () => {
    expect(ffmpeg, 'ffmpeg is installed (Debian ffmpeg; .ci/run)').not.toBeNull();
    const views = await studioViews();
    // One at a time: each run already keeps two cores busy.
    for (const scene of SCENE_NAMES) {
      const rendered = await creativeVideo(ffmpeg!, views, scene);
      const file = path.join(dir, `${scene}.mp4`);
      fs.writeFileSync(file, rendered.bytes);
      videos.set(scene, { rendered, file });
    }
  }, 600_000);

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(SCENE_NAMES)('%s is a 6–8 s 1080×1920 H.264 High MP4 at 30 fps in yuv420p', (scene) => {
    const { file, rendered } = videos.get(scene)!;
    expect(rendered).toMatchObject({ fileType: 'video/mp4', width: WIDTH, height: HEIGHT });
    const probe = JSON.parse(
      execFileSync(ffprobe!, ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,profile,width,height,pix_fmt,r_frame_rate,avg_frame_rate:format=duration,format_name', '-of', 'json', file], { encoding: 'utf8' }),
    ) as { streams: Record<string, string | number>[]; format: { duration: string; format_name: string } };
    expect(probe.streams).toHaveLength(1);
    expect(probe.streams[0]).toMatchObject({
      codec_type: 'video',
      codec_name: 'h264',
      profile: 'High',
      width: WIDTH,
      height: HEIGHT,
      pix_fmt: 'yuv420p',
      r_frame_rate: '30/1',
      avg_frame_rate: '30/1',
    });
    expect(probe.format.format_name).toContain('mp4');
    const duration = Number(probe.format.duration);
    expect(duration).toBeGreaterThanOrEqual(6);
    expect(duration).toBeLessThanOrEqual(8);
  });

  it.each(SCENE_NAMES)('%s starts playing before it has downloaded: its index (moov) comes before the media (mdat)', (scene) => {
    const boxes = topLevelBoxes(videos.get(scene)!.rendered.bytes);
    expect(boxes[0]).toBe('ftyp');
    expect(boxes).toContain('moov');
    expect(boxes).toContain('mdat');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it.each(SCENE_NAMES)('%s comes with a poster: a 1080×1920 JPEG that is a picture, not a black or flat frame', async (scene) => {
    const { poster } = videos.get(scene)!.rendered;
    expect(poster).toBeInstanceOf(Buffer);
    const image = sharp(poster!);
    const meta = await image.metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: WIDTH, height: HEIGHT });
    const stats = await image.greyscale().stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(10);
    expect(stats.channels[0]!.mean).toBeLessThan(245);
    expect(stats.channels[0]!.stdev).toBeGreaterThan(18);
  });

  it.each(SCENE_NAMES)('%s moves: frames a few seconds apart differ', (scene) => {
    const { file } = videos.get(scene)!;
    const early = lumaFrame(file, 0.5);
    const late = lumaFrame(file, 5);
    expect(meanDifference(early, late)).toBeGreaterThan(2.5);
  });

  it.each(SCENE_NAMES)('%s has a backdrop without banding: 64 px down its gradient holds many levels', (scene) => {
    const frame = lumaFrame(videos.get(scene)!.file, 0.5);
    // Runs down the top of the frame, where every scene shows its backdrop: a gradient that
    // bands shows two or three levels over 64 px; with grain it shows many.
    const levels = [100, 250, 400, 540, 700, 850, 980].map((x) => {
      const seen = new Set<number>();
      for (let y = 40; y < 104; y += 1) seen.add(frame[y * WIDTH + x]!);
      return seen.size;
    });
    expect(Math.min(...levels)).toBeGreaterThan(4);
  });

  it('no two scenes look alike: their posters differ', async () => {
    const thumbnails = new Map<string, Buffer>();
    for (const scene of SCENE_NAMES) {
      thumbnails.set(scene, await sharp(videos.get(scene)!.rendered.poster!).resize(54, 96, { fit: 'fill' }).removeAlpha().raw().toBuffer());
    }
    for (const [i, a] of SCENE_NAMES.entries()) {
      for (const b of SCENE_NAMES.slice(i + 1)) {
        expect(meanDifference(thumbnails.get(a)!, thumbnails.get(b)!), `${a} and ${b}`).toBeGreaterThan(12);
      }
    }
  });
});
