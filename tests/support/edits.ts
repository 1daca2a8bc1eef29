// A seller's image edit through the real API: the edited picture and its logo uploaded as edit
// uploads (register, then PUT the bytes), the edit description that names them, and the result
// added with batch-create.
import sharp from 'sharp';
import type { TestApp } from './test-app';
import type { EditUploadDescription } from '../../contract/materials';

let counter = 0;

export interface EditUpload {
  material_id: string;
  file_key: string;
  public_url: string;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

export async function uploadEditFile(t: TestApp, token: string, bytes: Buffer, description: EditUploadDescription): Promise<EditUpload> {
  const type = bytes.subarray(1, 4).toString() === 'PNG' ? 'image/png' : 'image/jpeg';
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { ...auth(token), 'idempotency-key': `edit-${Date.now()}-${(counter += 1)}` },
    payload: { file_name: type === 'image/png' ? 'logo.png' : 'edit.jpg', file_type: type, file_size: bytes.length, description },
  });
  if (registered.statusCode !== 200) throw new Error(registered.body);
  const ticket = registered.json().data;
  const put = await t.app.inject({ method: 'PUT', url: ticket.presigned_url, headers: { 'content-type': type }, payload: bytes });
  if (put.statusCode !== 200) throw new Error(put.body);
  return { material_id: ticket.material_id, file_key: ticket.file_key, public_url: ticket.public_url };
}

/** A logo as sellers have them: a PNG with a transparent background. */
export function logoPng(width = 300, height = 120): Promise<Buffer> {
  const inset = Math.round(height / 4);
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: { create: { width: width - 2 * inset, height: height - 2 * inset, channels: 4, background: { r: 212, g: 64, b: 43, alpha: 1 } } },
        top: inset,
        left: inset,
      },
    ])
    .png()
    .toBuffer();
}

/** An edit of a 1200×900 source cropped to 3:4, with a price and the logo in a corner. */
export function editWithLogo(sourceId: string, logoKey: string) {
  return {
    version: 1,
    source: { asset_id: sourceId, width: 1200, height: 900 },
    crop: { ratio: '3:4', x: 262, y: 0, width: 675, height: 900 },
    layers: [
      { type: 'text', id: 'price', text: '2 990 ₽', size: 48, color: '#d4402b', x: 0.5, y: 0.85 },
      { type: 'logo', id: 'logo', file_key: logoKey, width: 300, height: 120, x: 0.85, y: 0.1, scale: 0.5, opacity: 0.9 },
    ],
  };
}

/** Adds one PRODUCT result from an uploaded file, with an edit or without; the raw answer. */
export function createAsset(t: TestApp, token: string, fileKey: string, edit?: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/content/assets/batch-create',
    headers: auth(token),
    payload: [{ file_key: fileKey, content_config: { category: 'PRODUCT', content_module: 'PRODUCT_IMAGE' }, ...(edit ? { edit_meta: edit } : {}) }],
  });
}
