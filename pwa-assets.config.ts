// Icons for the web manifest, favicons and the Apple touch icon, generated from one SVG.
import { defineConfig, minimal2023Preset } from '@vite-pwa/assets-generator/config';

export default defineConfig({
  headLinkOptions: { preset: '2023' },
  preset: {
    ...minimal2023Preset,
    maskable: { ...minimal2023Preset.maskable, sizes: [192, 512], padding: 0.3, resizeOptions: { background: '#121212' } },
    apple: { ...minimal2023Preset.apple, padding: 0.3, resizeOptions: { background: '#121212' } },
  },
  images: ['public/favicon.svg'],
});
