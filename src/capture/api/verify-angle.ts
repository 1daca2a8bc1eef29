import { okEnvelope } from '../../../contract/envelope';
import { verificationSchema } from '../../../contract/materials';
import type { ShoeView } from '../../../contract/enums';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(verificationSchema);

/**
 * How long a check may take to answer once asked: the server checks one photo at a time, about
 * 3 s each on a small machine, longer while it also takes uploads in.
 */
const VERIFY_TIMEOUT_MS = 90_000;

/** The question last asked: the next one is sent once it is answered or given up. */
let asking: Promise<unknown> = Promise.resolve();

/** One question, given up when the network goes away (its answer can no longer come). */
async function ask(materialId: string, view: ShoeView) {
  const gone = new AbortController();
  const giveUp = () => gone.abort();
  window.addEventListener('offline', giveUp);
  try {
    const body = { material_id: materialId, view };
    return (await apiRequest('/api/v1/shoe-verification/verify-angle', { method: 'POST', body, schema, timeoutMs: VERIFY_TIMEOUT_MS, signal: gone.signal })).data;
  } finally {
    window.removeEventListener('offline', giveUp);
  }
}

/**
 * What the shooting requirements say about one uploaded photo (SPEC §7 shoe-verification).
 * Questions go one at a time: the server answers them one after another anyway, and each one
 * waiting there holds one of the browser's six connections to the server. A batch of photos
 * asked about at once held them all, and the photos still in the outbox waited for a connection
 * with the link idle (their registration gave up after 10 s and backed off).
 */
export function verifyAngle(materialId: string, view: ShoeView) {
  const answer = asking.then(() => ask(materialId, view));
  asking = answer.catch(() => undefined);
  return answer;
}
