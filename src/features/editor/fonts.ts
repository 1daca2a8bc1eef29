// The editor's served fonts: Noto Sans, Noto Serif and Oswald (Latin and Cyrillic) with Noto
// Sans SC's CJK slices, weights 400 and 700, under our own family names (FONT_FAMILIES). The
// woff2 files are emitted by the build and fetched only when a text needs them; the service
// worker keeps those it fetched, so an editor used once draws the same offline. The CJK slices'
// unicode ranges (76 KB) are a JSON file of the build, fetched the first time a text has CJK.
import { z } from 'zod';
import { TEXT_REFERENCE_WIDTH, type EditLayer, type TextLayer } from '../../../contract/edit';
import { FONT_FAMILIES, textFont } from '../../../contract/edit-draw';
import type { FontFaceSource } from '../../../contract/edit-render';
import notoSansRanges from '@fontsource/noto-sans/unicode.json';
import notoSerifRanges from '@fontsource/noto-serif/unicode.json';
import oswaldRanges from '@fontsource/oswald/unicode.json';
import cjkRangesUrl from '@fontsource/noto-sans-sc/unicode.json?url&no-inline';
import { fetchStaticJson } from '../../lib/api-client';

/** Built addresses of the woff2 files, by their path in node_modules (never inlined: they are fonts). */
const FILES = import.meta.glob<string>(
  [
    '/node_modules/@fontsource/noto-sans/files/noto-sans-{latin,latin-ext,cyrillic,cyrillic-ext}-{400,700}-normal.woff2',
    '/node_modules/@fontsource/noto-serif/files/noto-serif-{latin,latin-ext,cyrillic,cyrillic-ext}-{400,700}-normal.woff2',
    '/node_modules/@fontsource/oswald/files/oswald-{latin,latin-ext,cyrillic,cyrillic-ext}-{400,700}-normal.woff2',
    '/node_modules/@fontsource/noto-sans-sc/files/noto-sans-sc-[0-9]*-{400,700}-normal.woff2',
  ],
  { query: '?url&no-inline', import: 'default', eager: true },
);

const PACKAGES = {
  'noto-sans': { family: FONT_FAMILIES.sans, ranges: notoSansRanges as Record<string, string> },
  'noto-serif': { family: FONT_FAMILIES.serif, ranges: notoSerifRanges as Record<string, string> },
  oswald: { family: FONT_FAMILIES.display, ranges: oswaldRanges as Record<string, string> },
} as const;
type BasePackage = keyof typeof PACKAGES;

interface FontFile {
  pkg: BasePackage | 'noto-sans-sc';
  /** The subset's name in the package: latin, cyrillic-ext, or a CJK slice's number. */
  subset: string;
  weight: number;
  url: string;
}

const FILE_NAME = /\/@fontsource\/([^/]+)\/files\/\1-(.+)-(400|700)-normal\.woff2$/;

const files: FontFile[] = Object.entries(FILES).flatMap(([path, url]) => {
  const match = FILE_NAME.exec(path);
  if (!match) return [];
  return [{ pkg: match[1] as FontFile['pkg'], subset: match[2]!, weight: Number(match[3]), url }];
});

const absolute = (url: string) => new URL(url, document.baseURI).href;

const baseFaces: FontFaceSource[] = files.flatMap((file) =>
  file.pkg === 'noto-sans-sc'
    ? []
    : [{ family: PACKAGES[file.pkg].family, weight: file.weight, url: absolute(file.url), unicodeRange: PACKAGES[file.pkg].ranges[file.subset]!, style: 'normal' as const }],
);

/** [first, last] code point pairs of a CSS unicode-range ("U+0000-00FF,U+0131"). */
function codePoints(range: string): [number, number][] {
  return range.split(',').map((part) => {
    const [first, last = first] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(first!, 16), parseInt(last!, 16)];
  });
}

/** What the Latin and Cyrillic files hold (the three packages slice alike). */
const baseCoverage = files
  .filter((file) => file.pkg === 'noto-sans')
  .flatMap((file) => codePoints(PACKAGES['noto-sans'].ranges[file.subset]!));

const isText = (layer: EditLayer): layer is TextLayer => layer.type === 'text';

/** Whether a text has characters beyond Latin and Cyrillic (CJK, full-width forms…). */
function needsCjk(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (!baseCoverage.some(([first, last]) => code >= first && code <= last)) return true;
  }
  return false;
}

let cjkFaces: Promise<FontFaceSource[]> | null = null;

/** Noto Sans SC's numbered slices, with their unicode ranges by slice ("[21]": "U+9f83,…"). */
function loadCjkFaces(): Promise<FontFaceSource[]> {
  cjkFaces ??= fetchStaticJson(cjkRangesUrl, z.record(z.string(), z.string())).then((ranges) =>
    files.flatMap((file) => {
      const unicodeRange = file.pkg === 'noto-sans-sc' ? ranges[`[${file.subset}]`] : undefined;
      return unicodeRange ? [{ family: FONT_FAMILIES.cjk, weight: file.weight, url: absolute(file.url), unicodeRange, style: 'normal' as const }] : [];
    }),
  );
  cjkFaces.catch(() => {
    cjkFaces = null;
  });
  return cjkFaces;
}

/** The faces the layers' texts may draw with: every family's Latin and Cyrillic files, and the CJK slices when a text has such characters. */
export async function editorFontFaces(layers: readonly EditLayer[]): Promise<FontFaceSource[]> {
  const cjk = layers.some((layer) => isText(layer) && needsCjk(layer.text));
  return cjk ? [...baseFaces, ...(await loadCjkFaces())] : baseFaces;
}

/** Faces already added to the page's font set, by file. */
const onPage = new Set<string>();

/**
 * Loads into the page the faces the text layers draw with, so the preview draws the glyphs the
 * saved picture will have. Call it before drawing, and again when a text or its font changes
 * (only what is new is fetched), then redraw. Rejects when a file cannot be fetched.
 */
export async function loadEditorFonts(layers: readonly EditLayer[]): Promise<void> {
  const texts = layers.filter(isText);
  if (texts.length === 0) return;
  for (const face of await editorFontFaces(texts)) {
    if (onPage.has(face.url)) continue;
    const descriptors: FontFaceDescriptors = { weight: String(face.weight), style: face.style ?? 'normal' };
    if (face.unicodeRange) descriptors.unicodeRange = face.unicodeRange;
    document.fonts.add(new FontFace(face.family, `url(${JSON.stringify(face.url)})`, descriptors));
    onPage.add(face.url);
  }
  await Promise.all(texts.map((layer) => document.fonts.load(textFont(layer, TEXT_REFERENCE_WIDTH), layer.text)));
}
