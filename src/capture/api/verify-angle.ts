import { okEnvelope } from '../../../contract/envelope';
import { verificationSchema } from '../../../contract/materials';
import type { ShoeView } from '../../../contract/enums';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(verificationSchema);

/**
 * How long a check may take to answer once asked: the server runs its networks for one photo at a
 * time, about 3 s each on a small machine, longer while it also takes uploads in.
 */
const VERIFY_TIMEOUT_MS = 90_000;

/**
 * Questions at the server at once: one being answered and the next already there, not a round trip
 * away. More would only wait there (the server gets through them no faster), each holding one of
 * the browser's six connections to the server: a batch of photos asked about at once held them
 * all, and the photos still in the outbox waited for a connection with the link idle (their
 * registration gave up after 10 s and backed off).
 */
const AT_ONCE = 2;
let asking = 0;
const waiting: (() => void)[] = [];

/** Waits for a question's turn; `done` hands it to the next. */
async function turn(): Promise<void> {
  if (asking < AT_ONCE) asking += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
}

function done() {
  const next = waiting.shift();
  if (next) next();
  else asking -= 1;
}

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

/** A question not sent: by its turn, its photo had left the slot (moved, replaced or deleted). */
export class CheckNotWanted extends Error {
  constructor() {
    super('the photo is no longer in its slot');
    this.name = 'CheckNotWanted';
  }
}

/**
 * What the shooting requirements say about one uploaded photo (SPEC §7 shoe-verification), asked
 * in turn (`AT_ONCE`). A question whose photo has left its slot by its turn is not sent
 * (`wanted`): its material may be gone from the server already.
 */
export async function verifyAngle(materialId: string, view: ShoeView, wanted: () => Promise<boolean> = async () => true) {
  await turn();
  try {
    if (!(await wanted())) throw new CheckNotWanted();
    return await ask(materialId, view);
  } finally {
    done();
  }
}
