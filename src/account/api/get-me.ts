import { userSchema } from '../../../contract/auth';
import { okEnvelope } from '../../../contract/envelope';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(userSchema);

/** The signed-in seller; `token` when the session is not stored yet (right after sign-in). */
export async function getMe(token?: string) {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  return (await apiRequest('/api/v1/auth/me', { schema, headers })).data;
}
