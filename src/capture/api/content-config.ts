// GET /api/v1/content/config (SPEC §7): what the server's engines can make and at what price.
// The last answer is kept on the device, so page 2 still opens on a train with no signal.
import { contentCatalogueSchema, type ContentCatalogue } from '../../../contract/content';
import { okEnvelope } from '../../../contract/envelope';
import { safeParse } from 'zod/v4/core';
import { ApiError, apiRequest } from '../../lib/api-client';

const schema = okEnvelope(contentCatalogueSchema);
const CACHE_KEY = 'solestudio.content-config';

export interface LoadedCatalogue {
  catalogue: ContentCatalogue;
  /** True when the server could not be reached and the saved copy is shown. */
  offline: boolean;
}

function saved(locale: string): ContentCatalogue | null {
  try {
    const raw = localStorage.getItem(`${CACHE_KEY}.${locale}`);
    const parsed = raw ? safeParse(contentCatalogueSchema, JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function loadContentConfig(locale: string): Promise<LoadedCatalogue> {
  try {
    const catalogue = (await apiRequest('/api/v1/content/config', { schema })).data;
    try {
      localStorage.setItem(`${CACHE_KEY}.${locale}`, JSON.stringify(catalogue));
    } catch {
      // A full storage only costs the offline copy.
    }
    return { catalogue, offline: false };
  } catch (error) {
    const copy = error instanceof ApiError && error.status === 0 ? saved(locale) : null;
    if (copy) return { catalogue: copy, offline: true };
    throw error;
  }
}
