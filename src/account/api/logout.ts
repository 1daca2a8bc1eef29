import { z } from 'zod';
import { okEnvelope } from '../../../contract/envelope';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(z.null());

/** Ends this session on the server. */
export async function logout() {
  await apiRequest('/api/v1/auth/logout', { method: 'POST', body: {}, schema });
}
