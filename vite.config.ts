import fs from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { readVersionInfo, versionFile } from './build/version-file';
import { precompress } from './build/precompress';
import { ionicMdOnly } from './build/ionic-md-only';

const versionInfo = readVersionInfo('package.json', 'release.json');
const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;
const THEME_DARK = '#121212';

export default defineConfig({
  define: {
    __APP_VERSION__: JSON.stringify(versionInfo.version),
  },
  plugins: [
    react(),
    ionicMdOnly(),
    versionFile(versionInfo),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      registerType: 'prompt',
      // The app registers the worker itself through workbox-window (src/features/updates).
      injectRegister: false,
      pwaAssets: { config: true, overrideManifestIcons: true, injectThemeColor: false },
      manifest: {
        id: '/',
        name: 'SoleStudio',
        short_name: 'SoleStudio',
        description: 'Маркетинговые фото и видео для продавцов обуви и одежды',
        lang: 'ru',
        start_url: '/?source=pwa',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: THEME_DARK,
        theme_color: THEME_DARK,
        categories: ['business', 'photo', 'productivity'],
      },
      injectManifest: {
        // The plugin adds manifest.webmanifest itself.
        globPatterns: ['**/*.{js,css,html,svg,png,ico}'],
        // The editor's fonts (megabytes with the CJK slices) are cached by the service worker
        // as they are used, never precached (workers/sw.ts).
        globIgnores: ['version.json', '**/*.{br,gz}', '**/*.woff2'],
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // Vendor code in a few chunks the browser downloads and compiles in parallel, and that
        // stay cached when only the app's own code changes.
        codeSplitting: {
          groups: [
            // Vite's helper for dynamic imports, which every chunk that loads another one needs;
            // left alone, it joins the first group that uses it (Ionic).
            { name: 'preload', test: /vite[\\/]preload-helper/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|jotai)[\\/]/ },
            // Before Ionic's group, which would otherwise take react-router in as a dependency of
            // @ionic/react-router: the public pages use the router without Ionic.
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom|@remix-run)[\\/]/ },
            // Icon drawings (ionicons/icons) stay out: each goes with the screen that shows it.
            // So do Ionic's style sheets, which every page uses: in this group they would make
            // the entry import Ionic's JavaScript for their sake.
            {
              name: 'ionic',
              test: (id) => /node_modules[\\/](@ionic|@stencil|ionicons[\\/](?!icons))/.test(id) && !id.endsWith('.css'),
            },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
          ],
        },
      },
      treeshake: {
        // Ionic's per-component modules only define classes; without this hint every
        // component would land in the landing page's bundle (DESIGN §6).
        // @ionic/react builds some wrappers (tabs, nav, back button) with calls that carry no
        // pure annotation; they have no side effects, so unused ones can go.
        propertyReadSideEffects: false,
        manualPureFunctions: ['createForwardRef', 'createReactComponent', 'createRoutingComponent', 'React.memo'],
        moduleSideEffects: [
          { test: /@ionic[\\/]core[\\/]components[\\/]ion-[^\\/]+\.js$/, sideEffects: false },
          // Its wrappers only define components; unused ones (tabs, nav) must not ship.
          { test: /@ionic[\\/]react[\\/]dist[\\/]index\.js$/, sideEffects: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  preview: { port: 4173 },
});

// Fail early with a clear message if the icon source is missing.
if (!fs.existsSync('public/favicon.svg')) throw new Error('public/favicon.svg is missing');
