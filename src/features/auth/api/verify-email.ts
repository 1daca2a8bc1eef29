import { verifiedEmailSchema } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(verifiedEmailSchema);

export async function verifyEmail(token: string) {
  return (await apiRequest('/api/v1/auth/verify-email', { query: { token }, schema })).data;
}
