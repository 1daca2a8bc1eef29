// `npm run payment-fakes`: the local stand-ins for Stripe and YooKassa the test suite uses, started
// on fixed ports with fixed keys, so the real provider adapters can be tried end to end without an
// account: start this, then the server with the variables it prints. Each stand-in serves a page
// to pay on and notifies the server's webhook the way its provider does.
import { startFakeStripe } from '../tests/support/fakes/stripe';
import { startFakeYooKassa } from '../tests/support/fakes/yookassa';

const server = (process.env.SOLESTUDIO_URL ?? 'http://localhost:8080').replace(/\/+$/, '');

const stripe = await startFakeStripe({
  secretKey: 'sk_test_solestudio_local',
  webhookSecret: 'whsec_solestudio_local',
  webhookUrl: `${server}/api/v1/payment/webhooks/stripe`,
  port: 12111,
});
const yookassa = await startFakeYooKassa({
  shopId: '100500',
  secretKey: 'test_solestudio_local',
  notificationUrl: `${server}/api/v1/payment/webhooks/yookassa`,
  port: 12112,
});

console.log(`Stripe stand-in on ${stripe.origin}, YooKassa stand-in on ${yookassa.origin}, notifying ${server}.
Start the server with:

STRIPE_SECRET_KEY=${stripe.secretKey} STRIPE_WEBHOOK_SECRET=${stripe.webhookSecret} STRIPE_API_BASE=${stripe.origin} \\
YOOKASSA_SHOP_ID=${yookassa.shopId} YOOKASSA_SECRET_KEY=${yookassa.secretKey} YOOKASSA_API_URL=${yookassa.apiUrl} npm start
`);

const stop = async () => {
  await Promise.all([stripe.close(), yookassa.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
