import { okEnvelope } from '../../../contract/envelope';
import { verificationSchema } from '../../../contract/materials';
import type { ShoeView } from '../../../contract/enums';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(verificationSchema);

/**
 * How long a check may take to answer. The server checks one photo at a time, about 3 s each on a
 * small machine, and a seller who drops in seven photos at once waits for the seventh's behind the
 * other six: the usual ten seconds would give up on it while it is still being looked at.
 */
const VERIFY_TIMEOUT_MS = 90_000;

/** What the shooting requirements say about one uploaded photo (SPEC §7 shoe-verification). */
export async function verifyAngle(materialId: string, view: ShoeView) {
  return (await apiRequest('/api/v1/shoe-verification/verify-angle', { method: 'POST', body: { material_id: materialId, view }, schema, timeoutMs: VERIFY_TIMEOUT_MS })).data;
}
