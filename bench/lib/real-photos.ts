// The real-photo set: photographs of shoes taken by people, from public sources whose licence lets
// them be kept, each with a ground-truth mask made by hand (bench/real-photos/manifest.json says,
// for each, where it came from, under which licence, its SHA-256 and how its mask was made). The
// masks are the project's own and live beside the manifest; the photos are read from
// REAL_PHOTOS_DIR (by default ../shared/real-photos, where the shared data sits beside a clone)
// and checked against their SHA-256, so a figure is never measured on other pictures than the ones
// the manifest names.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ROOT } from './server';

export const SET_DIR = path.join(ROOT, 'bench', 'real-photos');

export interface RealEntry {
  id: string;
  file: string;
  kind: 'photo' | 'catalogue' | 'floor';
  source: { repo: string; path: string; commit: string };
  licence: string;
  licenceFile: string;
  sha256: string;
  width: number;
  height: number;
  view: string;
  surface: string;
  clutter: string[];
  sole: string;
  light: string;
  /** The mask's file under SET_DIR (white shoe, black else, the photo's upright size), or null for floors and catalogue shots. */
  mask: string | null;
  maskMethod: string | null;
  /** Whether a seller would call the view well framed: the whole shoe in the frame, in focus. */
  wellFramed: boolean;
  notes: string;
}

export interface LoadedPhoto {
  entry: RealEntry;
  bytes: Buffer;
  /** The ground truth, one byte per pixel (0 or 1), upright. */
  truth: Uint8Array | null;
  width: number;
  height: number;
}

export function photosDir(): string {
  return path.resolve(process.env.REAL_PHOTOS_DIR ?? path.join(ROOT, '..', 'shared', 'real-photos'));
}

export function manifest(): RealEntry[] {
  return JSON.parse(fs.readFileSync(path.join(SET_DIR, 'manifest.json'), 'utf8')) as RealEntry[];
}

/** Whether the photos the manifest names are where REAL_PHOTOS_DIR says. */
export function setPresent(): boolean {
  return manifest().every((entry) => fs.existsSync(path.join(photosDir(), entry.file)));
}

export async function readMask(file: string, width: number, height: number): Promise<Uint8Array> {
  const { data, info } = await sharp(path.join(SET_DIR, file)).greyscale().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height) throw new Error(`${file} is ${info.width}×${info.height}, its photo ${width}×${height}`);
  return Uint8Array.from(data, (v) => (v >= 128 ? 1 : 0));
}

/** The entries of `kind` one at a time, their bytes checked against the manifest: only one is held. */
export async function* eachPhoto(kind: RealEntry['kind'] = 'photo'): AsyncGenerator<LoadedPhoto> {
  const dir = photosDir();
  for (const entry of manifest().filter((e) => e.kind === kind)) {
    const file = path.join(dir, entry.file);
    if (!fs.existsSync(file)) throw new Error(`the real-photo set is not at ${dir} (${entry.file} is missing): set REAL_PHOTOS_DIR`);
    const bytes = fs.readFileSync(file);
    const sum = createHash('sha256').update(bytes).digest('hex');
    if (sum !== entry.sha256) throw new Error(`${entry.file} is not the photo the manifest names (sha256 ${sum})`);
    const meta = await sharp(bytes).rotate().toBuffer({ resolveWithObject: true });
    const { width, height } = meta.info;
    yield { entry, bytes, truth: entry.mask ? await readMask(entry.mask, width, height) : null, width, height };
  }
}

/** The entries of `kind`, all held at once. */
export async function loadPhotos(kind: RealEntry['kind'] = 'photo'): Promise<LoadedPhoto[]> {
  const loaded: LoadedPhoto[] = [];
  for await (const photo of eachPhoto(kind)) loaded.push(photo);
  return loaded;
}
