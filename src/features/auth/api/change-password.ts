import { z } from 'zod';
import type { ChangePasswordRequest } from '../../../../contract/auth';
import { okEnvelope } from '../../../../contract/envelope';
import { apiRequest } from '../../../lib/api-client';

const schema = okEnvelope(z.null());

export async function changePassword(body: ChangePasswordRequest) {
  await apiRequest('/api/v1/auth/change-password', { method: 'POST', body, schema });
}
