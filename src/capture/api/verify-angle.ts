import { okEnvelope } from '../../../contract/envelope';
import { verificationSchema } from '../../../contract/materials';
import type { ShoeView } from '../../../contract/enums';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(verificationSchema);

/** What the shooting requirements say about one uploaded photo (SPEC §7 shoe-verification). */
export async function verifyAngle(materialId: string, view: ShoeView) {
  return (await apiRequest('/api/v1/shoe-verification/verify-angle', { method: 'POST', body: { material_id: materialId, view }, schema })).data;
}
