// A publication followed through the API until its job has ended, with a bound sized for a busy
// machine (the platforms' stand-ins apply late on purpose in some tests).
import sharp from 'sharp';
import { expect } from 'vitest';
import { createAsset, uploadEditFile } from './edits';
import type { TestApp } from './test-app';

export interface EndedPublication {
  status: string;
  items: { position: number; status: string; message: string | null; remote_url: string | null }[];
}

export async function publicationEnded(t: TestApp, headers: Record<string, string>, id: string): Promise<EndedPublication> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = (await t.app.inject({ method: 'GET', url: `/api/v1/publisher/publish/${id}`, headers })).json().data;
    if (['done', 'partial', 'failed'].includes(answer.status)) return answer as EndedPublication;
    if (Date.now() > deadline) throw new Error(`publication ${id} still ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A picture result in the seller's materials, `width` × `height`, coloured by `hue` (its first pixel's red). */
export async function pictureResult(t: TestApp, token: string, hue: number, width = 900, height = 1200): Promise<string> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: hue, g: 255 - hue, b: 128 } } }).jpeg().toBuffer();
  const upload = await uploadEditFile(t, token, jpeg, 'image edit');
  const made = await createAsset(t, token, upload.file_key);
  expect(made.statusCode, made.body).toBe(200);
  return made.json().data[0].id as string;
}
