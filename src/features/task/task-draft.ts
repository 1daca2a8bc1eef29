// The task page's reading of its draft: the content type from the address, page 2's choices as a
// selection, and the shoe's measurements under the names the server uses.
import { CONTENT_TYPES, type ContentType } from '../../../contract/enums';
import { EMPTY_SELECTION, type Selection, type ShoeParamsPayload } from '../../../contract/selection';
import type { ShoeParams } from '../../offline/records';

export const PARAMS = ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'] as const;
export type Param = (typeof PARAMS)[number];

/** The measurements under the server's names (SPEC §3). */
const SERVER_PARAM: Record<Param, keyof ShoeParamsPayload> = {
  shaftHeight: 'boot_height',
  heelHeight: 'heel_height',
  shaftLatitude: 'boot_circumference',
  ankleLatitude: 'ankle_circumference',
};

export function contentTypeOf(search: string): ContentType | null {
  const type = new URLSearchParams(search).get('type');
  return CONTENT_TYPES.find((t) => t === type) ?? null;
}

/** Page 2's choices as the draft keeps them (validated when read from IndexedDB), or none yet. */
export function selectionOf(styles: Selection | null): Selection {
  return styles ?? EMPTY_SELECTION;
}

export function shoeParamsPayload(params: ShoeParams): ShoeParamsPayload {
  return Object.fromEntries(PARAMS.filter((name) => params[name] !== undefined).map((name) => [SERVER_PARAM[name], params[name]]));
}

/** A measurement as typed ("12,5" too): a number from 0 to 100, `undefined` for an empty field, or null when it is neither. */
export function paramValue(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
}
