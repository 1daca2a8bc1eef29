// The variables that point an app at the providers' local stand-ins, as an operator's keys would
// point it at the real ones; `via` is another address in front of a stand-in (a proxy a test holds).
interface StripeStandIn {
  secretKey: string;
  webhookSecret: string;
  origin: string;
}
interface YooKassaStandIn {
  shopId: string;
  secretKey: string;
  apiUrl: string;
}

export const stripeKeys = (stripe: StripeStandIn, via = stripe.origin) => ({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: via,
});

export const yookassaKeys = (yoo: YooKassaStandIn, via?: string) => ({
  YOOKASSA_SHOP_ID: yoo.shopId,
  YOOKASSA_SECRET_KEY: yoo.secretKey,
  YOOKASSA_API_URL: via ? `${via}/v3` : yoo.apiUrl,
});
