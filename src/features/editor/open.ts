// Opening an edit: an asset from My materials (an edited one reopens on its source with its
// layers), or a picture from the device. The picture's bytes and the logos' are put in IndexedDB
// with the draft, so the edit goes on, and saves, without the network.
import type { Asset } from '../../../contract/assets';
import { BACKGROUNDS, type Background } from '../../../contract/enums';
import { editDescriptionSchema, type EditDescription } from '../../../contract/edit';
import { compressPhoto } from '../../capture/compress';
import { getAsset } from '../../content/api';
import { apiDownload } from '../../lib/api-client';
import { db } from '../../offline/db';
import type { EditDraftRecord, EditKey, EditPlacement, PhotoRecord } from '../../offline/records';
import { DEVICE_SOURCE_ID } from '../../offline/jobs/edit';
import { blankEdit } from './edit-state';
import { decodeImage, PictureUnreadable, releaseImage } from './picture';

export const assetEditKey = (assetId: string): EditKey => `asset:${assetId}`;

/** Only pictures are edited; a video is refused before anything loads. */
export class NotAPicture extends Error {
  constructor() {
    super('not a picture');
    this.name = 'NotAPicture';
  }
}

/** Where an edit of this asset goes: its own section, its task and (for a person shot) its background. */
function placementOf(asset: Asset): EditPlacement {
  const background = asset.content_module === 'REAL_PERSON_IMAGE' && (BACKGROUNDS as readonly string[]).includes(asset.background ?? '') ? (asset.background as Background) : null;
  return { taskId: asset.task_id, category: asset.category, background, contentModule: asset.content_module };
}

async function storePhoto(blob: Blob, width: number, height: number): Promise<PhotoRecord> {
  const mime = blob.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const photo: PhotoRecord = { id: crypto.randomUUID(), mime, bytes: await blob.arrayBuffer(), width, height, createdAt: Date.now() };
  await db.photos.put(photo);
  return photo;
}

/**
 * The draft for editing an asset: the one kept from before if there is one (`resumed`), else a
 * new one. An edited asset reopens on its source with its layers while the seller still has the
 * source; once that is deleted, the edited picture itself is the new start (`sourceGone`).
 */
export async function openAsset(
  assetId: string,
  signal?: AbortSignal,
): Promise<{ draft: EditDraftRecord; resumed: boolean; sourceGone: boolean; picture?: { blob: Blob; image: HTMLImageElement } }> {
  const key = assetEditKey(assetId);
  const kept = await db.edits.get(key);
  if (kept && (await db.photos.get(kept.source.photoId))) return { draft: kept, resumed: true, sourceGone: false };
  const asset = await getAsset(assetId, signal);
  if (!asset.file_type.startsWith('image/')) throw new NotAPicture();
  const reopened = asset.edit_meta && asset.edit_files?.source_url ? asset.edit_meta : null;
  const url = reopened ? asset.edit_files!.source_url! : asset.file_url;
  const { blob } = await apiDownload(url, { signal });
  // Decoded once: its true size (whatever the asset record says) and the picture the editor shows.
  const image = await decodeImage(blob);
  const size = { width: image.naturalWidth, height: image.naturalHeight };
  try {
    return { ...(await newDraft(key, asset, url, blob, size, reopened, signal)), picture: { blob, image } };
  } catch (error) {
    releaseImage(image);
    throw error;
  }
}

async function newDraft(
  key: EditKey,
  asset: Asset,
  url: string,
  blob: Blob,
  size: { width: number; height: number },
  reopened: EditDescription | null,
  signal?: AbortSignal,
) {
  const photo = await storePhoto(blob, size.width, size.height);
  let edit: EditDescription = blankEdit({ asset_id: asset.id, ...size });
  const logos: EditDraftRecord['logos'] = [];
  if (reopened && reopened.source.width === size.width && reopened.source.height === size.height) {
    edit = reopened;
    for (const layer of reopened.layers) {
      if (layer.type !== 'logo' || logos.some((logo) => logo.localKey === layer.file_key)) continue;
      const logoUrl = asset.edit_files?.logos[layer.file_key];
      if (!logoUrl) continue;
      const logo = (await apiDownload(logoUrl, { signal })).blob;
      logos.push({ localKey: layer.file_key, photoId: (await storePhoto(logo, layer.width, layer.height)).id });
    }
    // A logo the server no longer has cannot be drawn: its layer goes, the rest stays.
    edit = { ...edit, layers: edit.layers.filter((layer) => layer.type !== 'logo' || logos.some((logo) => logo.localKey === layer.file_key)) };
  }
  const draft: EditDraftRecord = {
    key,
    source: { assetId: edit.source.asset_id, url, photoId: photo.id, ...size, placement: placementOf(asset) },
    edit: editDescriptionSchema.parse(edit),
    logos,
    updatedAt: Date.now(),
  };
  await db.edits.put(draft);
  return { draft, resumed: false, sourceGone: asset.edit_meta !== null && !reopened };
}

/** The draft for a picture from the device: made the size the studio works at, kept on the device. */
export async function openDeviceFile(file: File, onProgress?: (percent: number) => void): Promise<EditDraftRecord> {
  const compressed = await compressPhoto(file, onProgress);
  const blob = new Blob([compressed.bytes], { type: compressed.mime });
  const photo = await storePhoto(blob, compressed.width, compressed.height);
  const previous = await db.edits.get('device');
  const draft: EditDraftRecord = {
    key: 'device',
    source: {
      assetId: null,
      url: null,
      photoId: photo.id,
      width: compressed.width,
      height: compressed.height,
      placement: { taskId: null, category: 'PRODUCT', background: null, contentModule: 'PRODUCT_IMAGE' },
    },
    edit: blankEdit({ asset_id: DEVICE_SOURCE_ID, width: compressed.width, height: compressed.height }),
    logos: [],
    updatedAt: Date.now(),
  };
  await db.transaction('rw', db.edits, db.photos, async () => {
    await db.edits.put(draft);
    if (previous) await db.photos.bulkDelete([previous.source.photoId, ...previous.logos.map((logo) => logo.photoId)]);
  });
  return draft;
}

/** The picture the draft edits, decoded. */
export async function draftPicture(draft: EditDraftRecord): Promise<{ blob: Blob; image: HTMLImageElement }> {
  const photo = await db.photos.get(draft.source.photoId);
  if (!photo) throw new PictureUnreadable();
  const blob = new Blob([photo.bytes], { type: photo.mime });
  return { blob, image: await decodeImage(blob) };
}

/** The draft's logos, decoded, by the file_key the edit names them with. */
export async function draftLogos(draft: EditDraftRecord): Promise<Map<string, { blob: Blob; image: HTMLImageElement }>> {
  const found = new Map<string, { blob: Blob; image: HTMLImageElement }>();
  for (const logo of draft.logos) {
    const photo = await db.photos.get(logo.photoId);
    if (!photo) continue;
    const blob = new Blob([photo.bytes], { type: photo.mime });
    const image = await decodeImage(blob).catch(() => null);
    if (image) found.set(logo.localKey, { blob, image });
  }
  return found;
}

/** Forgets an edit in progress and its bytes. */
export async function discardDraft(key: EditKey): Promise<void> {
  await db.transaction('rw', db.edits, db.photos, async () => {
    const draft = await db.edits.get(key);
    if (!draft) return;
    await db.photos.bulkDelete([draft.source.photoId, ...draft.logos.map((logo) => logo.photoId)]);
    await db.edits.delete(key);
  });
}
