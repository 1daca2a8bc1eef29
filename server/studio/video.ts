// CREATIVE_VIDEO in the studio engine: a 7 s 1080×1920 H.264 MP4 of one of the ten themed
// scenes (./motion/scenes), made on this machine with ffmpeg from the shoe's cut-outs, with its
// poster frame (the scene's hero moment) as a JPEG.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreativeScene } from '../../contract/enums';
import { ConfigError } from '../config/env';
import { loadSharp } from '../lib/sharp';
import type { Rendered, ViewCutout } from './layouts';
import { shoot } from './motion/film';
import { THEMED_SCENES } from './motion/scenes';
import { FORMAT } from './motion/stage';

export const VIDEO_SIZE = { width: FORMAT.width, height: FORMAT.height } as const;

/** The scenes the studio films, by name: each draws its set and moves its camera (./motion/scenes). */
export const SCENES = THEMED_SCENES;

export async function creativeVideo(ffmpeg: string, views: readonly ViewCutout[], scene: Exclude<CreativeScene, 'CUSTOM'>): Promise<Rendered> {
  // The sole is never shown: the angle shots make the film.
  const shots = views.filter((v) => v.view !== 'bottom');
  if (shots.length === 0) throw new Error('a video needs at least one view');
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'solestudio-video-'));
  try {
    const film = await SCENES[scene].make(shots);
    const { video, poster } = await shoot(ffmpeg, film, FORMAT, dir);
    const sharp = await loadSharp();
    const [bytes, jpeg] = await Promise.all([
      fs.promises.readFile(video),
      sharp(poster, { raw: { ...VIDEO_SIZE, channels: 3 } })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer(),
    ]);
    return { bytes, fileType: 'video/mp4', ...VIDEO_SIZE, poster: jpeg };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
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
