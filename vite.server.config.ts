// The server as `npm start` runs it and the worker as `npm run worker` does: server/server.ts and
// server/worker.ts compiled into dist-server/server.js and worker.js (their shared code in chunks
// beside them), with node_modules left external and the migrations, fonts and the networks' thread
// (a plain module) copied beside them.
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

export default defineConfig({
  publicDir: false,
  plugins: [copyServerFiles()],
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
