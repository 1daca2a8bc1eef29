// The payment sandbox's hosted checkout pages (DESIGN §2: the embedded default provider): what a
// provider's payment page is — a card form for card methods, a wallet confirmation for the
// wallets — with pay, decline and cancel, plainly marked as a test where no money moves. Plain
// HTML forms, no script, in the seller's language. Each action ends the checkout as the sandbox
// keeps it, which notifies our webhook (later, and twice), then sends the browser back.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { isLocale, DEFAULT_LOCALE, type Locale } from '../../contract/locales';
import { text } from '../lib/i18n';
import { SANDBOX_CHECKOUT_PATH } from '../../contract/routes';
import type { Sandbox, SandboxCheckout } from '../billing/providers/sandbox';

const WALLETS: Record<string, string> = { yoomoney_ru: 'ЮMoney', sberpay_ru: 'SberPay', tbank_ru: 'T-Pay' };
const CARD_METHODS = new Set(['card_ru', 'card_intl']);
/** A test card that is declined, as providers' test cards are. */
const DECLINING_CARD = '4000000000000002';

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The Luhn checksum every real card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
  holder: string;
}

/** What is wrong with a card form, as a text key; null when it can be charged. */
function cardProblem(form: CardForm, now: Date): 'sandbox.card_invalid' | 'sandbox.expiry_invalid' | 'sandbox.cvc_invalid' | null {
  const digits = form.number.replace(/[\s-]/g, '');
  if (!/^\d{16}$/.test(digits) || !luhn(digits)) return 'sandbox.card_invalid';
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry.trim());
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return 'sandbox.expiry_invalid';
  if (!/^\d{3}$/.test(form.cvc.trim())) return 'sandbox.cvc_invalid';
  return null;
}

function page(locale: Locale, body: string): string {
  const title = text(locale, 'sandbox.title');
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;background:#eef1f5;color:#1b1f24}
main{max-width:440px;margin:0 auto;padding:16px}
.banner{background:#ffe58a;border:2px dashed #b58900;border-radius:10px;padding:12px 14px;font-weight:600;margin-bottom:16px}
.card{background:#fff;border-radius:14px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:20px}
h1{font-size:1.25rem;margin:0 0 12px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:0 0 18px}dt{color:#5b6570}dd{margin:0;font-weight:600;text-align:right}
.total{font-size:1.6rem}
label{display:block;font-size:.9rem;color:#3c4650;margin:12px 0 4px}
input{box-sizing:border-box;width:100%;font:inherit;padding:12px;border:1px solid #c5ccd4;border-radius:8px}
input:focus{outline:3px solid #7aa7ff;border-color:#2f6fed}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.hint{font-size:.85rem;color:#5b6570;margin:12px 0 0}
.error{background:#fde2e1;color:#8a1f17;border-radius:8px;padding:10px 12px;margin:0 0 12px}
button{display:block;width:100%;font:inherit;font-weight:600;padding:14px;border-radius:10px;border:0;margin-top:12px;cursor:pointer}
.pay{background:#2f6fed;color:#fff}.decline{background:#fff;color:#8a1f17;border:1px solid #e0b4b0}.cancel{background:transparent;color:#3c4650;text-decoration:underline}
a{color:#2f6fed}
</style></head>
<body><main><p class="banner" role="note">${escape(text(locale, 'sandbox.banner'))}</p><div class="card">${body}</div></main></body></html>`;
}

function checkoutPage(checkout: SandboxCheckout, locale: Locale, action: string, options: { error?: string; form?: CardForm } = {}): string {
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: checkout.currency }).format(checkout.amountMinor / 100);
  const field = (name: keyof CardForm, label: string, attrs: string) =>
    `<label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" ${attrs} value="${escape(options.form?.[name] ?? '')}" required>`;
  const wallet = WALLETS[checkout.method];
  const form = wallet
    ? `<p>${escape(text(locale, 'sandbox.wallet', { wallet }))}</p>`
    : `${field('number', text(locale, 'sandbox.card_number'), 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"')}
<div class="row"><div>${field('expiry', text(locale, 'sandbox.expiry'), 'autocomplete="cc-exp" placeholder="12/34"')}</div>
<div>${field('cvc', text(locale, 'sandbox.cvc'), 'inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div></div>
${field('holder', text(locale, 'sandbox.holder'), 'autocomplete="cc-name"').replace(' required>', '>')}
<p class="hint">${escape(text(locale, 'sandbox.test_cards'))}</p>`;
  // A mandate authorises later charges without the seller: nothing is charged now.
  const mandate = checkout.mode === 'mandate';
  const summary = mandate
    ? `<p data-testid="sandbox-mandate">${escape(text(locale, 'sandbox.mandate_terms'))}</p>`
    : `<dt>${escape(text(locale, 'sandbox.amount'))}</dt><dd class="total" data-testid="sandbox-amount">${escape(amount)}</dd>`;
  const payLabel = mandate ? text(locale, 'sandbox.authorise') : `${text(locale, 'sandbox.pay')} ${amount}`;
  return page(
    locale,
    `<h1>${escape(text(locale, mandate ? 'sandbox.mandate_title' : 'sandbox.title'))}</h1>
<dl><dt>${escape(text(locale, 'sandbox.merchant'))}</dt><dd>SoleStudio</dd><dt>${escape(checkout.description)}</dt><dd></dd>
${mandate ? '' : summary}</dl>${mandate ? summary : ''}
${options.error ? `<p class="error" role="alert" data-testid="sandbox-error">${escape(options.error)}</p>` : ''}
<form method="post" action="${action}/pay">${form}<button class="pay" type="submit" data-testid="sandbox-pay">${escape(payLabel)}</button></form>
<form method="post" action="${action}/decline"><button class="decline" type="submit" data-testid="sandbox-decline">${escape(text(locale, 'sandbox.decline'))}</button></form>
<form method="post" action="${action}/cancel"><button class="cancel" type="submit" data-testid="sandbox-cancel">${escape(text(locale, 'sandbox.cancel'))}</button></form>`,
  );
}

function endedPage(checkout: SandboxCheckout, locale: Locale): string {
  const key = checkout.status === 'succeeded' ? 'sandbox.ended_succeeded' : 'sandbox.ended_canceled';
  return page(locale, `<h1>${escape(text(locale, 'sandbox.title'))}</h1><p data-testid="sandbox-ended">${escape(text(locale, key))}</p>
<p><a href="${escape(checkout.successUrl)}">${escape(text(locale, 'sandbox.back'))}</a></p>`);
}

export const sandboxCheckoutRoutes: FastifyPluginAsync<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const actionOf = (id: string) => `${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(id)}`;
  const localeOf = (checkout: SandboxCheckout): Locale => (isLocale(checkout.locale) ? checkout.locale : DEFAULT_LOCALE);
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
  const notFound = (reply: FastifyReply) => html(reply, 404, page(DEFAULT_LOCALE, `<p>${escape(text(DEFAULT_LOCALE, 'sandbox.not_found'))}</p>`));

  app.get<{ Params: { id: string } }>('/:id', { schema: { hide: true } }, async (request, reply) => {
    const checkout = await sandbox.find(request.params.id);
    if (!checkout) return notFound(reply);
    const locale = localeOf(checkout);
    if (checkout.status !== 'pending') return html(reply, 200, endedPage(checkout, locale));
    const prefill = CARD_METHODS.has(checkout.method) ? { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: '' } : undefined;
    return html(reply, 200, checkoutPage(checkout, locale, actionOf(request.params.id), { form: prefill }));
  });

  app.post<{ Params: { id: string; action: string }; Body: Partial<CardForm> | undefined }>(
    '/:id/:action',
    { schema: { hide: true } },
    async (request, reply) => {
      const { id, action } = request.params;
      const checkout = await sandbox.find(id);
      if (!checkout) return notFound(reply);
      const locale = localeOf(checkout);
      if (checkout.status !== 'pending') return html(reply, 409, endedPage(checkout, locale));
      if (action === 'cancel') {
        await sandbox.cancel(id);
        return reply.redirect(checkout.cancelUrl, 303);
      }
      if (action === 'pay' && CARD_METHODS.has(checkout.method)) {
        const form: CardForm = {
          number: String(request.body?.number ?? ''),
          expiry: String(request.body?.expiry ?? ''),
          cvc: String(request.body?.cvc ?? ''),
          holder: String(request.body?.holder ?? ''),
        };
        const problem = cardProblem(form, new Date());
        if (problem) return html(reply, 422, checkoutPage(checkout, locale, actionOf(id), { error: text(locale, problem), form }));
        if (form.number.replace(/[\s-]/g, '') === DECLINING_CARD) {
          await sandbox.decline(id);
          return reply.redirect(checkout.successUrl, 303);
        }
      }
      if (action === 'pay') await sandbox.pay(id);
      else if (action === 'decline') await sandbox.decline(id);
      else return notFound(reply);
      return reply.redirect(checkout.successUrl, 303);
    },
  );
};
