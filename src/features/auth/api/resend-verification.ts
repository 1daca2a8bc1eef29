import { z } from 'zod';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(z.null());

export async function resendVerification(email: string) {
  await apiRequest('/api/v1/auth/resend-verification', { method: 'POST', body: { email }, schema });
}
