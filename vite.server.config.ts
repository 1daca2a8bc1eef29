// The server as `npm start` runs it: server/server.ts compiled into dist-server/server.js, with
// node_modules left external and the migrations and fonts copied beside it.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = 'dist-server';

/** Files the server reads beside its module: the migrations and the studio engine's fonts. */
function copyServerFiles(): Plugin {
  return {
    name: 'solestudio:copy-server-files',
    closeBundle() {
      fs.cpSync(path.resolve('server/db/migrations'), path.resolve(OUT_DIR, 'migrations'), { recursive: true });
      fs.cpSync(path.resolve('server/studio/fonts'), path.resolve(OUT_DIR, 'fonts'), { recursive: true });
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [copyServerFiles()],
  build: {
    ssr: 'server/server.ts',
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rolldownOptions: { output: { entryFileNames: 'server.js', format: 'esm' } },
  },
});
