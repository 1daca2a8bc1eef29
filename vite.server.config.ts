// The server as `npm start` runs it and the worker as `npm run worker` does: server/server.ts and
// server/worker.ts compiled into dist-server/server.js and worker.js (their shared code in chunks
// beside them), with most of node_modules left external (BUNDLED_PACKAGES below), and the
// migrations, fonts and the networks' thread (a plain module) copied beside them.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = 'dist-server';

/** Files the server reads beside its module: the migrations, the studio engine's fonts and its networks' thread. */
function copyServerFiles(): Plugin {
  return {
    name: 'solestudio:copy-server-files',
    closeBundle() {
      fs.cpSync(path.resolve('server/db/migrations'), path.resolve(OUT_DIR, 'migrations'), { recursive: true });
      fs.cpSync(path.resolve('server/studio/fonts'), path.resolve(OUT_DIR, 'fonts'), { recursive: true });
      fs.cpSync(path.resolve('server/studio/networks-worker.mjs'), path.resolve(OUT_DIR, 'networks-worker.mjs'));
    },
  };
}

/**
 * Plain-JavaScript packages every start loads, bundled into the server's own chunks: resolving
 * and reading their hundreds of small files cost more start-up time than compiling them. Packages
 * with native parts or files of their own (sharp, argon2, PGlite, swagger-ui's pages) stay in
 * node_modules, and so do the packages these import.
 */
const BUNDLED_PACKAGES = [
  'fastify',
  /^@fastify\/(compress|static|rate-limit)$/,
  'fastify-plugin',
  'fastify-type-provider-zod',
  'zod',
  'drizzle-orm',
  'i18next',
  'helmet',
  'close-with-grace',
  'yazl',
];

export default defineConfig({
  publicDir: false,
  plugins: [copyServerFiles()],
  ssr: { noExternal: BUNDLED_PACKAGES },
  build: {
    ssr: true,
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rolldownOptions: {
      input: { server: 'server/server.ts', worker: 'server/worker.ts' },
      // Every module sits in dist-server itself: the database client and the studio engine find
      // the migrations and fonts beside their own file.
      output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', format: 'esm' },
    },
  },
});
