// What the landing route costs in bytes: the entry chunk with everything it imports statically
// (the critical path), read from Vite's build manifest, gzip-compressed as the server sends it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export interface BundleCost {
  jsFiles: string[];
  cssFiles: string[];
  jsGzipBytes: number;
  cssGzipBytes: number;
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** The static-import closure of index.html's entry chunk. */
export function criticalPathCost(distDir: string): BundleCost {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry && key.endsWith('index.html'));
  if (!entryKey) throw new Error('No index.html entry in the build manifest');
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
    chunk.imports?.forEach(visit);
  };
  visit(entryKey);
  const sum = (files: Set<string>) => [...files].reduce((total, file) => total + gzipSize(path.join(distDir, file)), 0);
  return { jsFiles: [...js], cssFiles: [...css], jsGzipBytes: sum(js), cssGzipBytes: sum(css) };
}
