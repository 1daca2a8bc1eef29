// The server as `npm start` runs it: server/server.ts compiled into dist-server/server.js, with
// node_modules left external and the migrations copied beside it.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = 'dist-server';

function copyMigrations(): Plugin {
  return {
    name: 'solestudio:copy-migrations',
    closeBundle() {
      fs.cpSync(path.resolve('server/db/migrations'), path.resolve(OUT_DIR, 'migrations'), { recursive: true });
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [copyMigrations()],
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
