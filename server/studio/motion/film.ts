// One themed video as a single ffmpeg run: stills drawn once in Node (a backdrop plate, set
// pieces, the lit shoe, particle fields, sprites) are looped inside the filter graph and moved,
// scaled, faded and lit per frame by expressions, then encoded. Everything that moves is placed
// at whole pixels and never resampled, except the layers that grow (the shoe): a grainy plate
// resampled every frame is new detail to the encoder in every frame and costs it several times
// over, while a plate that only shifts is predicted for free.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** An ffmpeg expression in `t`, the time in seconds. */
export type Expr = string;

/** An image drawn once, raw. */
export interface Still {
  width: number;
  height: number;
  format: 'rgb24' | 'rgba';
  pixels: Buffer;
}

export interface Layer {
  still: Still;
  /** Top-left corner in the frame, whole pixels (after any crop and resize). */
  x: Expr;
  y: Expr;
  /** A moving window of the still: a frame of a sprite strip, a part of a scrolling field. */
  crop?: { width: number; height: number; x: Expr; y: Expr };
  /** The layer's size per frame, when it grows, shrinks or squashes. */
  size?: { width: Expr; height: Expr };
  /** On screen from … until (seconds), fading its alpha in and out over these spans. */
  from?: number;
  until?: number;
  fadeIn?: number;
  fadeOut?: number;
  /** A soft band of light (`band`, white on transparency) drawn over the still only where it is opaque. */
  sweep?: { band: Still; x: Expr; y: Expr; from: number; until: number };
}

export interface Film {
  /** The plate behind everything, larger than the frame; the window onto it moves. */
  backdrop: { still: Still; x: Expr; y: Expr };
  /** Back to front. */
  layers: Layer[];
  /** ffmpeg filters over each finished frame (a lens), when the scene has them. */
  finish?: string[];
  /** The poster frame's time, seconds: the scene's hero moment. */
  poster: number;
}

export interface FilmFormat {
  width: number;
  height: number;
  fps: number;
  seconds: number;
}

/** A number as ffmpeg reads it. */
export const num = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/\.?0+$/, ''));

/** 0 before `start`, 1 after `end`, eased in between (smoothstep); `time` is `t` unless delayed. */
export function ease(start: number, end: number, time: Expr = 't'): Expr {
  const u = ramp(start, end, time);
  return `(${u}*${u}*(3-2*${u}))`;
}

/** Linear 0 → 1 between `start` and `end`, held outside. */
export const ramp = (start: number, end: number, time: Expr = 't'): Expr => `clip((${time}-${num(start)})/${num(end - start)},0,1)`;

/** `from` + (`to` − `from`) × `u`. */
export const mix = (from: number, to: number, u: Expr): Expr => `(${num(from)}+${num(to - from)}*${u})`;

/** A whole number of pixels (ffmpeg rounds positions down; this rounds to nearest). */
export const whole = (value: Expr): Expr => `floor(${value}+0.5)`;

/** An even number of pixels, for sizes in a chroma-subsampled format. */
export const even = (value: Expr): Expr => `2*floor((${value})/2+0.5)`;

/** The ffmpeg arguments and filter graph that render `film`, with the stills each input reads. */
export function filmGraph(film: Film, format: FilmFormat, dir: string): { args: string[]; stills: Map<string, Still> } {
  const frames = Math.round(format.seconds * format.fps);
  const files = new Map<string, Still>();
  const inputs: string[] = [];
  const index = new Map<Still, number>();
  const uses = new Map<Still, number>();
  const count = (still: Still) => uses.set(still, (uses.get(still) ?? 0) + 1);
  count(film.backdrop.still);
  for (const layer of film.layers) {
    count(layer.still);
    if (layer.sweep) count(layer.sweep.band);
  }
  const chains: string[] = [];
  // Each still is read once, converted to the frame's pixel format once, and split between the
  // layers that show it; the loop filter then repeats the converted frame without copying it.
  for (const [still, n] of uses) {
    const i = index.size;
    index.set(still, i);
    const file = path.join(dir, `still-${i}.raw`);
    files.set(file, still);
    inputs.push('-f', 'rawvideo', '-pixel_format', still.format, '-video_size', `${still.width}x${still.height}`, '-framerate', String(format.fps), '-i', file);
    const pixels = still.format === 'rgba' ? 'yuva420p' : 'yuv420p';
    const outs = Array.from({ length: n }, (_, k) => `[s${i}_${k}]`).join('');
    chains.push(`[${i}:v]format=${pixels}${n > 1 ? `,split=${n}` : ''}${outs}`);
  }
  const taken = new Map<Still, number>();
  const take = (still: Still) => {
    const k = taken.get(still) ?? 0;
    taken.set(still, k + 1);
    return `[s${index.get(still)}_${k}]`;
  };
  const looped = `loop=loop=${frames - 1}:size=1,setpts=N/(${format.fps}*TB)`;
  const window = (from?: number, until?: number) =>
    from !== undefined || until !== undefined ? `,trim=start=${num(from ?? 0)}:end=${num(until ?? format.seconds + 1)}` : '';

  chains.push(`${take(film.backdrop.still)}${looped},crop=${format.width}:${format.height}:x='${film.backdrop.x}':y='${film.backdrop.y}'[l0]`);
  film.layers.forEach((layer, n) => {
    const name = `c${n}`;
    let source = `${take(layer.still)}${looped}${window(layer.from, layer.until)}`;
    if (layer.crop) source += `,crop=${layer.crop.width}:${layer.crop.height}:x='${layer.crop.x}':y='${layer.crop.y}'`;
    if (layer.sweep) {
      const { band, x, y, from, until } = layer.sweep;
      chains.push(`${source},split[${name}c][${name}m]`);
      chains.push(`[${name}m]alphaextract[${name}a]`);
      chains.push(`${take(band)}${looped}${window(from, until)}[${name}b]`);
      chains.push(`[${name}c][${name}b]overlay=x='${x}':y='${y}':eof_action=pass[${name}l]`);
      chains.push(`[${name}l][${name}a]alphamerge[${name}]`);
      source = `[${name}]`;
    } else {
      chains.push(`${source}[${name}]`);
      source = `[${name}]`;
    }
    const after: string[] = [];
    if (layer.fadeIn) after.push(`fade=t=in:st=${num(layer.from ?? 0)}:d=${num(layer.fadeIn)}:alpha=1`);
    if (layer.fadeOut) after.push(`fade=t=out:st=${num((layer.until ?? format.seconds) - layer.fadeOut)}:d=${num(layer.fadeOut)}:alpha=1`);
    if (layer.size) after.push(`scale=w='${layer.size.width}':h='${layer.size.height}':eval=frame:flags=bicubic`);
    const moved = after.length ? `${source}${after.join(',')}[${name}f]` : '';
    if (moved) chains.push(moved);
    const over = layer.from !== undefined || layer.until !== undefined ? ':eof_action=pass' : '';
    chains.push(`[l${n}]${moved ? `[${name}f]` : source}overlay=x='${layer.x}':y='${layer.y}'${over}[l${n + 1}]`);
  });
  const finish = [...(film.finish ?? []), 'format=yuv420p'];
  chains.push(`[l${film.layers.length}]${finish.join(',')}[out]`);

  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-filter_complex_threads',
    '2',
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[out]',
    '-frames:v',
    String(frames),
    '-r',
    String(format.fps),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'film',
    '-profile:v',
    'high',
    // The diamond motion search and one pass of sub-pixel refinement: the layers move by whole
    // pixels, so the finer searches find nothing more and cost a fifth of the encoding.
    '-x264-params',
    'me=dia:subme=1',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    // A key frame at the poster's moment: the poster is then read back without decoding what
    // came before it, and it is the best-kept frame of the video.
    '-force_key_frames',
    `expr:eq(n,${posterFrame(film, format)})`,
    '-threads',
    '2',
    '-movflags',
    '+faststart',
  ];
  return { args, stills: files };
}

const posterFrame = (film: Film, format: FilmFormat) => Math.min(Math.round(format.seconds * format.fps) - 1, Math.max(0, Math.round(film.poster * format.fps)));

/** Longer than any scene takes on a busy machine; a run still going then is stuck. */
const RUN_TIMEOUT_MS = 180_000;

export function runFfmpeg(ffmpeg: string, args: string[], output?: { maxBytes: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', output ? 'pipe' : 'ignore', 'pipe'], timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' });
    let stderr = '';
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (output && size > output.maxBytes) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg exited with ${code}: ${stderr}`))));
  });
}

/** Renders `film` to an MP4 in `dir`; returns the file and the poster frame as raw RGB. */
export async function shoot(ffmpeg: string, film: Film, format: FilmFormat, dir: string): Promise<{ video: string; poster: Buffer }> {
  const { args, stills } = filmGraph(film, format, dir);
  await Promise.all([...stills].map(([file, still]) => fs.promises.writeFile(file, still.pixels)));
  const video = path.join(dir, 'video.mp4');
  await runFfmpeg(ffmpeg, [...args, '-y', video]);
  const frameBytes = format.width * format.height * 3;
  const poster = await runFfmpeg(
    ffmpeg,
    // Half a frame early: the seek lands on the key frame and the first frame at or after it is the poster.
    ['-hide_banner', '-loglevel', 'error', '-ss', Math.max(0, (posterFrame(film, format) - 0.5) / format.fps).toFixed(4), '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBytes: frameBytes },
  );
  if (poster.length !== frameBytes) throw new Error(`the poster frame has ${poster.length} bytes, not ${frameBytes}`);
  return { video, poster };
}
