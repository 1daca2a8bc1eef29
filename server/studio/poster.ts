// A video's poster frame for a video an engine made without one (a remote engine's): one frame
// from a second in, or the first when the video is shorter, as a JPEG at the video's size.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Rendered } from './layouts';

/** How long extracting one frame may take before it is given up. */
const FRAME_TIMEOUT_MS = 30_000;

function run(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), FRAME_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg could not take a poster frame (${code}): ${errors}`));
    });
  });
}

export async function posterFrame(ffmpeg: string, video: Buffer): Promise<Buffer | null> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'solestudio-poster-'));
  try {
    const input = path.join(dir, 'video.mp4');
    const output = path.join(dir, 'poster.jpg');
    await fs.writeFile(input, video);
    for (const seek of ['1', '0']) {
      await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-ss', seek, '-i', input, '-frames:v', '1', '-q:v', '3', output]);
      const frame = await fs.readFile(output).catch(() => null);
      if (frame && frame.length > 0) return frame;
    }
    return null;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The rendered output with a poster frame when it is a video that came without one. */
export async function withPoster(rendered: Rendered, ffmpeg: string | null): Promise<Rendered> {
  if (rendered.fileType !== 'video/mp4' || rendered.poster || !ffmpeg) return rendered;
  const poster = await posterFrame(ffmpeg, rendered.bytes).catch(() => null);
  return poster ? { ...rendered, poster } : rendered;
}
