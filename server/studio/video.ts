// CREATIVE_VIDEO in the studio engine: a 6.8 s 1080×1920 H.264 MP4 made with ffmpeg from the
// angle shots. Each named scene has its own set (drawn behind the shoe), camera motion, colour
// grade and transition between angles, so no two scenes look alike.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreativeScene } from '../../contract/enums';
import { ConfigError } from '../config/env';
import { loadSharp } from '../lib/sharp';
import type { Rendered, ViewCutout } from './layouts';

export const VIDEO_SIZE = { width: 1080, height: 1920 } as const;
const FPS = 30;
/** Each angle is on screen this long, overlapping the next by FADE. */
const SEGMENT_S = 1.6;
const FADE_S = 0.3;
const MAX_SHOTS = 5;
/** The stage is drawn larger than the frame so the camera has room to move. */
const STAGE = { width: 1296, height: 2304 } as const;
const ROOM = { x: STAGE.width - VIDEO_SIZE.width, y: STAGE.height - VIDEO_SIZE.height };

type Motion = 'push' | 'pull' | 'left' | 'right' | 'up' | 'down' | 'bounce';

interface SceneLook {
  /** Backdrop gradient, top to bottom. */
  sky: [string, string];
  /** SVG drawn over the backdrop, behind the shoe. */
  set: string;
  /** The shoe's width as a share of the frame. */
  scale: number;
  motion: Motion;
  transition: string;
  /** The colour grade, applied once to each still rather than to every frame. */
  grade: Grade;
  /** ffmpeg filters drawn once on each still (a lens), when the scene has one. */
  lens?: string;
  /** ffmpeg filters that need the moving frames (a trail), when the scene has one. */
  effect?: string;
}

interface Grade {
  saturation?: number;
  /** Around mid grey: 1 leaves contrast as it is. */
  contrast?: number;
  /** Per-channel gains (a warm or cool cast). */
  gains?: [number, number, number];
  /** Added to every channel, 0–255. */
  lift?: number;
}

const W = STAGE.width;
const H = STAGE.height;
const repeat = (n: number, draw: (i: number) => string) => Array.from({ length: n }, (_, i) => draw(i)).join('');

export const SCENES: Record<Exclude<CreativeScene, 'CUSTOM'>, SceneLook> = {
  SHOE_GIANT: {
    sky: ['#8EC5FF', '#E8F4FF'],
    set: `<g fill="#5B6B82" fill-opacity="0.55">${repeat(14, (i) => `<rect x="${i * 95}" y="${H * 0.78 - ((i * 73) % 260)}" width="80" height="${(i * 73) % 260 + 60}"/>`)}</g><rect y="${H * 0.8}" width="${W}" height="${H * 0.2}" fill="#6E7C90"/>`,
    scale: 1.0,
    motion: 'push',
    transition: 'fade',
    grade: { contrast: 1.06, saturation: 1.1 },
  },
  SHOE_PLANT: {
    sky: ['#1F5E3A', '#A8D5A2'],
    set: repeat(18, (i) => `<ellipse cx="${(i * 151) % W}" cy="${(i * 263) % H}" rx="60" ry="190" fill="#2E8B57" fill-opacity="0.55" transform="rotate(${(i * 37) % 180 - 90} ${(i * 151) % W} ${(i * 263) % H})"/>`),
    scale: 0.8,
    motion: 'up',
    transition: 'wipeup',
    grade: { gains: [0.98, 1.07, 0.98] },
  },
  SHOE_CRYSTAL: {
    sky: ['#2A1B5C', '#7E6BD6'],
    set: repeat(12, (i) => `<polygon points="${(i * 211) % W},${(i * 331) % H} ${((i * 211) % W) + 160},${((i * 331) % H) + 60} ${((i * 211) % W) + 60},${((i * 331) % H) + 260}" fill="#E0D8FF" fill-opacity="0.22" stroke="#FFFFFF" stroke-opacity="0.5" stroke-width="3"/>`),
    scale: 0.8,
    motion: 'pull',
    transition: 'circleopen',
    grade: { saturation: 1.25, lift: 8 },
  },
  SHOE_LIQUID_METAL: {
    sky: ['#1B1D22', '#8C939E'],
    set: repeat(6, (i) => `<path d="M0 ${300 + i * 330} C ${W * 0.3} ${200 + i * 330}, ${W * 0.7} ${420 + i * 330}, ${W} ${300 + i * 330}" stroke="#D9DEE6" stroke-opacity="0.35" stroke-width="26" fill="none"/>`),
    scale: 0.85,
    motion: 'right',
    transition: 'dissolve',
    grade: { saturation: 0.35, contrast: 1.25, lift: -6 },
  },
  SHOE_SAND: {
    sky: ['#F6C98B', '#C7773E'],
    set: `<path d="M0 ${H * 0.72} Q ${W * 0.3} ${H * 0.64} ${W * 0.6} ${H * 0.73} T ${W} ${H * 0.7} V ${H} H 0 Z" fill="#D9914F"/><path d="M0 ${H * 0.82} Q ${W * 0.4} ${H * 0.76} ${W} ${H * 0.84} V ${H} H 0 Z" fill="#B8692F"/><circle cx="${W * 0.78}" cy="${H * 0.2}" r="110" fill="#FFF2C4" fill-opacity="0.8"/>`,
    scale: 0.85,
    motion: 'left',
    transition: 'slideleft',
    grade: { gains: [1.07, 1, 0.93], saturation: 1.15 },
  },
  SHOE_FISHEYE_JUMP: {
    sky: ['#FFE14D', '#FF9F1C'],
    set: repeat(10, (i) => `<circle cx="${W / 2}" cy="${H / 2}" r="${150 + i * 120}" fill="none" stroke="#FFFFFF" stroke-opacity="0.35" stroke-width="18"/>`),
    scale: 0.75,
    motion: 'bounce',
    transition: 'zoomin',
    grade: { saturation: 1.2 },
    // The lens pulls the corners in: the middle is cropped and brought back to the stage's size.
    lens: `lenscorrection=k1=0.22:k2=0.05,crop=iw*0.8:ih*0.8,scale=${W}:${H}`,
  },
  SHOE_PHANTOM: {
    sky: ['#050507', '#22222A'],
    set: repeat(5, (i) => `<rect x="0" y="${H * 0.2 + i * 280}" width="${W}" height="4" fill="#8E8EA8" fill-opacity="0.4"/>`),
    scale: 0.8,
    motion: 'left',
    transition: 'fadeblack',
    grade: { contrast: 1.15 },
    effect: 'lagfun=decay=0.9',
  },
  SHOE_FRUIT: {
    sky: ['#FF7F6E', '#FFD27A'],
    set: repeat(16, (i) => `<circle cx="${(i * 173) % W}" cy="${(i * 389) % H}" r="${50 + ((i * 29) % 70)}" fill="${['#FF3B3B', '#FFB703', '#8AC926', '#FB5607'][i % 4]}" fill-opacity="0.8"/>`),
    scale: 0.8,
    motion: 'push',
    transition: 'radial',
    grade: { saturation: 1.4, contrast: 1.05 },
  },
  SHOE_BARBIE: {
    sky: ['#FF5FB0', '#FFD1EA'],
    set: repeat(20, (i) => `<path transform="translate(${(i * 137) % W} ${(i * 281) % H}) scale(${1 + (i % 3) * 0.5})" d="M0 12 C -24 -14, -48 14, 0 44 C 48 14, 24 -14, 0 12 Z" fill="#FFFFFF" fill-opacity="0.5"/>`),
    scale: 0.8,
    motion: 'down',
    transition: 'smoothleft',
    grade: { gains: [1.07, 0.98, 1.04], saturation: 1.2 },
  },
  SHOE_MOUNTAIN: {
    sky: ['#9CC3E6', '#F4F8FC'],
    set: `<polygon points="0,${H * 0.75} ${W * 0.3},${H * 0.45} ${W * 0.55},${H * 0.75}" fill="#5E7A99"/><polygon points="${W * 0.35},${H * 0.78} ${W * 0.7},${H * 0.38} ${W},${H * 0.7} ${W},${H * 0.78}" fill="#41607F"/><polygon points="${W * 0.62},${H * 0.47} ${W * 0.7},${H * 0.38} ${W * 0.77},${H * 0.46}" fill="#FFFFFF"/><rect y="${H * 0.77}" width="${W}" height="${H * 0.23}" fill="#E6EEF5"/>`,
    scale: 0.8,
    motion: 'up',
    transition: 'wiperight',
    grade: { gains: [0.97, 1, 1.08], lift: 5 },
  },
};

/** The camera's move over one angle, as ffmpeg filters from the stage to the frame. */
function motionFilter(motion: Motion): string {
  const s = SEGMENT_S;
  const size = `${VIDEO_SIZE.width}:${VIDEO_SIZE.height}`;
  switch (motion) {
    case 'left':
      return `crop=${size}:x='${ROOM.x}*(1-t/${s})':y=${ROOM.y / 2}`;
    case 'right':
      return `crop=${size}:x='${ROOM.x}*t/${s}':y=${ROOM.y / 2}`;
    case 'up':
      return `crop=${size}:x=${ROOM.x / 2}:y='${ROOM.y}*(1-t/${s})'`;
    case 'down':
      return `crop=${size}:x=${ROOM.x / 2}:y='${ROOM.y}*t/${s}'`;
    case 'bounce':
      return `crop=${size}:x=${ROOM.x / 2}:y='${ROOM.y / 2}+${ROOM.y / 2}*sin(2*PI*t/${s * 0.5})*exp(-t)'`;
    case 'push':
    case 'pull': {
      // The stage scaled a little more (push) or less (pull) every frame, its middle kept: cheaper
      // than zoompan, which resamples through a fresh context per frame at the stage's full size.
      const zoom = motion === 'push' ? `(1+0.15*t/${s})` : `(1.15-0.15*t/${s})`;
      const { width, height } = VIDEO_SIZE;
      return `scale=w='2*trunc(${width / 2}*${zoom})':h='2*trunc(${height / 2}*${zoom})':eval=frame:flags=bilinear,crop=${width}:${height}`;
    }
  }
}

/** One angle on the scene's set, at stage size. */
async function stage(ffmpeg: string, look: SceneLook, shot: ViewCutout, file: string): Promise<void> {
  const sharp = await loadSharp();
  const backdrop = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${look.sky[0]}"/><stop offset="1" stop-color="${look.sky[1]}"/></linearGradient>
    <filter id="b"><feGaussianBlur stdDeviation="18"/></filter></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${look.set}</svg>`);
  const box = { width: Math.round(VIDEO_SIZE.width * look.scale), height: Math.round(VIDEO_SIZE.height * 0.45) };
  const scale = Math.min(box.width / shot.cutout.width, box.height / shot.cutout.height);
  const width = Math.round(shot.cutout.width * scale);
  const height = Math.round(shot.cutout.height * scale);
  const shoe = await sharp(shot.cutout.png).resize(width, height).png({ compressionLevel: 1 }).toBuffer();
  const left = Math.round((W - width) / 2);
  const top = Math.round(H * 0.56 - height / 2);
  const shadow = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><filter id="s"><feGaussianBlur stdDeviation="16"/></filter></defs>
    <ellipse cx="${W / 2}" cy="${top + height}" rx="${width * 0.46}" ry="${Math.max(10, width * 0.04)}" fill="black" fill-opacity="0.35" filter="url(#s)"/></svg>`);
  const composed = await sharp(backdrop)
    .composite([{ input: shadow }, { input: shoe, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const rgb = `${file}.rgb`;
  fs.writeFileSync(rgb, await graded(composed, look.grade));
  // Once per still, not per frame: through the scene's lens, if any, and into the video's own
  // pixel format, so ffmpeg converts nothing while it films.
  const filters = [look.lens, 'format=yuv420p'].filter(Boolean).join(',');
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', ...rawInput('rgb24'), '-i', rgb, '-vf', filters, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-y', file]);
  fs.rmSync(rgb);
}

/** How ffmpeg reads a stage-size raw still. */
function rawInput(pixelFormat: 'rgb24' | 'yuv420p'): string[] {
  return ['-f', 'rawvideo', '-pixel_format', pixelFormat, '-video_size', `${STAGE.width}x${STAGE.height}`];
}

/** The scene's grade on one still (raw RGB at stage size). */
async function graded(pixels: Buffer, grade: Grade): Promise<Buffer> {
  const sharp = await loadSharp();
  const contrast = grade.contrast ?? 1;
  const gains = grade.gains ?? [1, 1, 1];
  let image = sharp(pixels, { raw: { width: W, height: H, channels: 3 } }).linear(
    gains.map((gain) => gain * contrast),
    gains.map(() => 128 * (1 - contrast) + (grade.lift ?? 0)),
  );
  if (grade.saturation !== undefined) {
    // A second pass: sharp applies modulate before linear within one pipeline.
    image = sharp(await image.raw().toBuffer(), { raw: { width: W, height: H, channels: 3 } }).modulate({ saturation: grade.saturation });
  }
  return image.raw().toBuffer();
}

function run(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${stderr}`))));
  });
}

/** The angles a video shows, in order: the best-looking views first, the sole left out. */
function shots(views: readonly ViewCutout[]): ViewCutout[] {
  return views.filter((v) => v.view !== 'bottom').slice(0, MAX_SHOTS);
}

export async function creativeVideo(ffmpeg: string, views: readonly ViewCutout[], scene: Exclude<CreativeScene, 'CUSTOM'>): Promise<Rendered> {
  const look = SCENES[scene];
  const chosen = shots(views);
  if (chosen.length === 0) throw new Error('a video needs at least one view');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-video-'));
  try {
    // The stills are drawn two at a time (one per core); ffmpeg then reads each, looped, as raw
    // yuv420p, which costs nothing to decode.
    const files = chosen.map((_, i) => path.join(dir, `shot-${i}.yuv`));
    for (let i = 0; i < chosen.length; i += 2) {
      await Promise.all(chosen.slice(i, i + 2).map((shot, j) => stage(ffmpeg, look, shot, files[i + j]!)));
    }
    const inputs = files.flatMap((file) => [...rawInput('yuv420p'), '-framerate', String(FPS), '-stream_loop', '-1', '-t', String(SEGMENT_S), '-i', file]);
    const chains = chosen.map((_, i) => `[${i}:v]${motionFilter(look.motion)},fps=${FPS},setsar=1,settb=AVTB[v${i}]`);
    let last = 'v0';
    const fades: string[] = [];
    for (let i = 1; i < chosen.length; i += 1) {
      const offset = (i * (SEGMENT_S - FADE_S)).toFixed(3);
      const out = i === chosen.length - 1 ? 'joined' : `x${i}`;
      fades.push(`[${last}][v${i}]xfade=transition=${look.transition}:duration=${FADE_S}:offset=${offset}[${out}]`);
      last = out;
    }
    const total = chosen.length * SEGMENT_S - (chosen.length - 1) * FADE_S;
    // A single shot is held a little longer so every video lasts at least six seconds.
    const hold = Math.max(0, 6.2 - total);
    const joined = chosen.length > 1 ? 'joined' : 'v0';
    const effect = look.effect ? `${look.effect},` : '';
    const ending = `[${joined}]tpad=stop_mode=clone:stop_duration=${hold.toFixed(2)},${effect}fade=t=in:d=0.3,fade=t=out:st=${(total + hold - 0.4).toFixed(2)}:d=0.4,format=yuv420p[out]`;
    const output = path.join(dir, 'video.mp4');
    await run(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-filter_complex_threads',
      '2',
      ...inputs,
      '-filter_complex',
      [...chains, ...fades, ending].join(';'),
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-preset',
      'superfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-threads',
      '2',
      '-y',
      output,
    ]);
    return { bytes: fs.readFileSync(output), fileType: 'video/mp4', ...VIDEO_SIZE };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * ffmpeg to use: the configured one, which must run (else ConfigError naming FFMPEG_PATH), else
 * one on PATH; null when there is none.
 */
export function locateFfmpeg(configured: string | undefined): string | null {
  if (configured) {
    const run = spawnSync(configured, ['-version'], { stdio: 'ignore', timeout: 15_000 });
    if (run.error || run.status !== 0) {
      const why = run.error ? run.error.message : `it exited with ${run.status ?? run.signal}`;
      throw new ConfigError([{ variable: 'FFMPEG_PATH', message: `${configured} does not run ffmpeg -version (${why})` }]);
    }
    return configured;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'ffmpeg');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
