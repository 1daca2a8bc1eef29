import { balanceSchema } from '../../../contract/auth';
import { okEnvelope } from '../../../contract/envelope';
import { apiRequest } from '../../lib/api-client';

const schema = okEnvelope(balanceSchema);

/** The balance, and when some of it next lapses. */
export async function getBalance() {
  return (await apiRequest('/api/v1/tokens/balance', { schema })).data;
}
