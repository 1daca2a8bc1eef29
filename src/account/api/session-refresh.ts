import { refreshedSessionSchema } from '../../../contract/auth';
import { okEnvelope } from '../../../contract/envelope';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(refreshedSessionSchema);

/** At start with a token: checks the session on the server and extends it. */
export async function refreshSession() {
  return (await apiRequest('/api/v1/auth/session-refresh', { method: 'POST', body: {}, schema })).data;
}
