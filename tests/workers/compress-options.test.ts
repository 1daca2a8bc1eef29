// The compression settings SPEC §5 and §9 ask for.
import { describe, expect, it } from 'vitest';
import { compressionOptions } from '../../workers/compress-image';

describe('compression options', () => {
  it('aim at 2080 px and 5 MB, inside our own worker, keeping the format', () => {
    expect(compressionOptions('image/jpeg')).toMatchObject({
      maxWidthOrHeight: 2080,
      maxSizeMB: 5,
      useWebWorker: false,
      fileType: 'image/jpeg',
      preserveExif: false,
    });
    expect(compressionOptions('image/png').fileType).toBe('image/png');
  });

  it('report progress to the caller', () => {
    const onProgress = () => {};
    expect(compressionOptions('image/jpeg', onProgress).onProgress).toBe(onProgress);
  });
});
