import { registeredSchema, type RegisterRequest } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(registeredSchema);

/** Creates the account; the server mails a verification link. Success is code 201 (SPEC §8). */
export async function register(body: RegisterRequest) {
  return apiRequest('/api/v1/auth/register', { method: 'POST', body, schema });
}
