import { tokenSchema, type LoginRequest } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(tokenSchema);

export async function login(body: LoginRequest) {
  return (await apiRequest('/api/v1/auth/login/custom', { method: 'POST', body, schema })).data;
}
