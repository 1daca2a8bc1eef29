// Saving results on the device (SPEC §8 material history): a zip of a selection fetched as it
// streams, with its progress, or a single file; a file the browser cannot fetch (another origin
// without CORS) opens in a new tab instead. The bytes come through the API client's apiDownload.
import { ApiError, apiDownload } from '../lib/api-client';

/** Hands bytes to the browser's download as a file named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4', 'video/webm': 'webm' };

/** A single result's file name: `solestudio-{category}-{first id characters}.{ext}`. */
export function fileNameOf(asset: { id: string; category: string; file_type: string }): string {
  return `solestudio-${asset.category.toLowerCase()}-${asset.id.slice(0, 8)}.${EXTENSIONS[asset.file_type] ?? 'bin'}`;
}

/**
 * Downloads one result; when it cannot be fetched here at all (another origin without CORS),
 * opens it in a new tab, where the seller can keep it. Resolves with how it went; a refusal
 * (an expired address, a server error) rejects with its ApiError.
 */
export async function downloadOne(asset: { id: string; category: string; file_type: string; file_url: string }): Promise<'saved' | 'opened'> {
  try {
    const { blob } = await apiDownload(asset.file_url);
    saveBlob(blob, fileNameOf(asset));
    return 'saved';
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 0)) throw error;
    window.open(asset.file_url, '_blank', 'noopener');
    return 'opened';
  }
}

/** Bytes as the seller reads them: 512 KB, 3.4 MB. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
