// The three calls of the forgot-password dialog, one per step (SPEC §4).
import { z } from 'zod';
import type { ForgotResetRequest } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(z.null());

export async function requestResetCode(email: string) {
  await apiRequest('/api/v1/auth/forgot-password/request', { method: 'POST', body: { email }, schema });
}

export async function verifyResetCode(email: string, code: string) {
  await apiRequest('/api/v1/auth/forgot-password/verify', { method: 'POST', body: { email, code }, schema });
}

export async function resetPassword(body: ForgotResetRequest) {
  await apiRequest('/api/v1/auth/forgot-password/reset', { method: 'POST', body, schema });
}
