// What the page asks of the compression worker, and the photo it gets back (SPEC §5, §9).
export interface CompressedPhoto {
  bytes: ArrayBuffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

export interface CompressApi {
  /** Compresses to ≤ 2080 px and a 5 MB target; `onProgress` receives 0–100. */
  compressImage(file: Blob, onProgress?: (percent: number) => void): Promise<CompressedPhoto>;
}

/** Whether a picked file is one SPEC §5 accepts: jpeg or png, by type or by extension. */
export function isAcceptedPhoto(file: { name: string; type: string }): boolean {
  const type = file.type.toLowerCase();
  if (type === 'image/jpeg' || type === 'image/png' || type === 'image/jpg') return true;
  if (type) return false;
  return /\.(jpe?g|png)$/i.test(file.name);
}
