// Vite plugin: writes .br and .gz beside every compressible file of the build so the server
// sends compressed bytes without compressing on each request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|webmanifest|txt|xml|ico)$/;
const MIN_BYTES = 1024;

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'solestudio:precompress',
    apply: 'build',
    // After vite-plugin-pwa has written sw.js and the manifest.
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const source = fs.readFileSync(file);
          if (source.length < MIN_BYTES) continue;
          fs.writeFileSync(
            `${file}.br`,
            zlib.brotliCompressSync(source, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
            }),
          );
          fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
        }
      },
    },
  };
}
