// Whether this server's payments are a sandbox at an address sellers reach (GET /payment/mode):
// asked once per page load, so every page can say that no money moves.
import { paymentModeSchema } from '../../contract/billing';
import { okEnvelope } from '../../contract/envelope';
import { apiRequest } from '../lib/api-client';

const mode = okEnvelope(paymentModeSchema);

export async function paymentsAreTests(): Promise<boolean> {
  return (await apiRequest('/api/v1/payment/mode', { schema: mode })).data.warning;
}
