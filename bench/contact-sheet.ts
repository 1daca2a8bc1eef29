// `npm run contact-sheet -- [out.jpg]`: every cut-out of the real-photo set over its photo, on one
// sheet. What the cut-out kept is shown as it is and the rest dimmed; the hand-made truth's outline
// is drawn in red, and each tile is labelled with its photo's id, IoU and the photo check's verdict.
import path from 'node:path';
import sharp from 'sharp';
import { analysePhoto, refusal } from '../server/materials/findings';
import { cutOut } from '../server/studio/segment';
import { scoreMask } from './lib/mask-scores';
import { loadPhotos } from './lib/real-photos';

const TILE = 360;
const COLUMNS = 6;

const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function tile(photo: Awaited<ReturnType<typeof loadPhotos>>[number]): Promise<Buffer> {
  const { width, height, truth } = photo;
  const cut = await cutOut(photo.bytes);
  const verdict = refusal(await analysePhoto(photo.bytes)) ?? 'accepted';
  const { data } = await sharp(photo.bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const shown = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    const keep = cut.mask[i] ? 1 : 0.3;
    const x = i % width;
    const edge = truth && truth[i] && (x === 0 || !truth[i - 1] || !truth[i + 1] || !truth[i - width] || !truth[i + width]);
    for (let c = 0; c < 3; c += 1) shown[i * 3 + c] = edge ? [255, 0, 0][c]! : Math.round(data[i * 3 + c]! * keep);
  }
  const score = truth ? scoreMask(truth, cut.mask, width, height) : null;
  const label = `${photo.entry.id}${score ? `  IoU ${score.iou.toFixed(3)}` : ''}  ${verdict}`;
  const picture = await sharp(shown, { raw: { width, height, channels: 3 } }).resize(TILE, TILE - 24, { fit: 'contain', background: '#202020' }).png().toBuffer();
  const caption = Buffer.from(`<svg width="${TILE}" height="24"><rect width="100%" height="100%" fill="#202020"/><text x="4" y="17" font-family="sans-serif" font-size="12" fill="white">${escape(label)}</text></svg>`);
  return sharp({ create: { width: TILE, height: TILE, channels: 3, background: '#202020' } })
    .composite([
      { input: picture, left: 0, top: 0 },
      { input: caption, left: 0, top: TILE - 24 },
    ])
    .png()
    .toBuffer();
}

const out = path.resolve(process.argv[2] ?? 'contact-sheet.jpg');
const photos = await loadPhotos('photo');
const tiles: Buffer[] = [];
for (const photo of photos) tiles.push(await tile(photo));
const rows = Math.ceil(tiles.length / COLUMNS);
await sharp({ create: { width: COLUMNS * TILE, height: rows * TILE, channels: 3, background: '#101010' } })
  .composite(tiles.map((input, k) => ({ input, left: (k % COLUMNS) * TILE, top: Math.floor(k / COLUMNS) * TILE })))
  .jpeg({ quality: 85 })
  .toFile(out);
console.log(`${tiles.length} cut-outs on ${out}`);
