// Renders the pictures the README shows: one per studio still category (PRODUCT in each of its
// looks) from the repository's phone-photo fixtures, scaled to 800 px wide, into docs/pictures/.
// Run with `npx tsx scripts/readme-pictures.ts`. Nothing is fetched.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { phoneShoePhoto, type PhoneView } from '../tests/fixtures/phone-shoes';
import { cutOut } from '../server/studio/segment';
import { colourCard, multiAngleCard, poster, productShot, stillLife, type Rendered, type ViewCutout } from '../server/studio/layouts';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'pictures');
const WIDTH = 800;
const VIEWS: PhoneView[] = ['right_45', 'right_side', 'left_side', 'front', 'back'];

/** The guided views of one shoe, as a seller's phone takes them, cut out. */
async function shoe(): Promise<ViewCutout[]> {
  const views: ViewCutout[] = [];
  for (const [i, view] of VIEWS.entries()) {
    const photo = await phoneShoePhoto({ seed: 20 + i, view, upper: [92, 104, 58], accent: [74, 84, 46], tilt: (i % 3) - 1 });
    views.push({ view, cutout: await cutOut(photo.jpeg) });
  }
  return views;
}

/** Each picture by its file name: the category (and PRODUCT's look). */
function pictures(views: ViewCutout[]): Record<string, () => Promise<Rendered>> {
  const hero = views[0]!.cutout;
  return {
    'PRODUCT-STUDIO': () => productShot(hero, 'STUDIO'),
    'PRODUCT-WB_OZON': () => productShot(hero, 'WB_OZON'),
    'PRODUCT-AMAZON': () => productShot(hero, 'AMAZON'),
    PRODUCT2: () => multiAngleCard(views, 'en'),
    POSTER: () => poster(views, { headline: 'Olive canvas sneakers', details: 'Heel 3 cm · Shaft 8 cm' }, 'en'),
    OUTFIT_STILL_LIFE: () => stillLife(views),
    OUTFIT_COLOR: () => colourCard(views, 'en'),
  };
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const views = await shoe();
  for (const [name, make] of Object.entries(pictures(views))) {
    const started = performance.now();
    const rendered = await make();
    const ms = performance.now() - started;
    const file = path.join(OUT, `${name}.jpg`);
    const bytes = await sharp(rendered.bytes).resize({ width: WIDTH }).jpeg({ quality: 88, chromaSubsampling: '4:4:4', mozjpeg: true }).toBuffer();
    fs.writeFileSync(file, bytes);
    console.log(`${name.padEnd(18)} ${rendered.width}×${rendered.height}  ${Math.round(ms)} ms  → ${path.relative(process.cwd(), file)} (${Math.round(bytes.length / 1024)} KB)`);
  }
}

await main();
