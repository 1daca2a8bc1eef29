// The mail SoleStudio sends about accounts and tasks, in the seller's language (the catalogue's
// `mail` texts), as plain text and HTML.
import type { Locale } from '../../contract/locales';
import { text } from '../lib/i18n';

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(paragraphs: string[]): string {
  return [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5">',
    ...paragraphs,
    '<p style="color:#777">SoleStudio</p></body></html>',
  ].join('\n');
}

const button = (link: string, label: string) =>
  `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#5b4bff;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(label)}</a></p>`;

export function verificationMail(locale: Locale, username: string, link: string): Rendered {
  const hello = text(locale, 'mail.hello', { name: username });
  const body = text(locale, 'mail.verify.body');
  const expiry = text(locale, 'mail.verify.expiry');
  const ignore = text(locale, 'mail.ignore');
  return {
    subject: text(locale, 'mail.verify.subject'),
    text: [hello, '', body, link, '', expiry, ignore, '', 'SoleStudio'].join('\n'),
    html: page([
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(body)}</p>`,
      button(link, text(locale, 'mail.verify.button')),
      `<p style="font-size:13px;word-break:break-all">${escapeHtml(link)}</p>`,
      `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
    ]),
  };
}

export function resetCodeMail(locale: Locale, username: string, code: string): Rendered {
  const hello = text(locale, 'mail.hello', { name: username });
  const body = text(locale, 'mail.resetCode.body');
  const expiry = text(locale, 'mail.resetCode.expiry');
  const ignore = text(locale, 'mail.ignore');
  return {
    subject: text(locale, 'mail.resetCode.subject'),
    text: [hello, '', body, code, '', expiry, ignore, '', 'SoleStudio'].join('\n'),
    html: page([
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(body)}</p>`,
      `<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(code)}</p>`,
      `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
    ]),
  };
}

/** The notice sent when a task ends (SPEC §4: processing promises an e-mail). */
export function taskFinishedMail(
  locale: Locale,
  username: string,
  outcome: { status: 'completed' | 'partially_completed' | 'failed'; failureType: string | null },
  link: string,
): Rendered {
  const reason = outcome.failureType === 'manual_rejection' ? 'manual_rejection' : 'system_error';
  const body = text(locale, `mail.task.body.${outcome.status === 'failed' ? reason : outcome.status}`);
  const hello = text(locale, 'mail.hello', { name: username });
  const open = text(locale, 'mail.task.open');
  return {
    subject: text(locale, `mail.task.subject.${outcome.status}`),
    text: [hello, '', body, '', `${open}: ${link}`, '', 'SoleStudio'].join('\n'),
    html: page([`<p>${escapeHtml(hello)}</p>`, `<p>${escapeHtml(body)}</p>`, button(link, open)]),
  };
}

/** A step in a subscription's life (SPEC §4): activated, renewed, a refused charge, ended. */
export function subscriptionMail(
  locale: Locale,
  username: string,
  message: { kind: 'activated' | 'renewed' | 'payment_failed' | 'unpaid' | 'canceled' | 'revoked' | 'upgraded' | 'refunded'; planName: (locale: Locale) => string; date: Date | null },
  link: string,
): Rendered {
  const plan = message.planName(locale);
  const date = message.date ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(message.date) : '—';
  const hello = text(locale, 'mail.hello', { name: username });
  const body = text(locale, `mail.subscription.body.${message.kind}`, { date });
  const open = text(locale, 'mail.subscription.open');
  return {
    subject: text(locale, `mail.subscription.subject.${message.kind}`, { plan }),
    text: [hello, '', body, '', `${open}: ${link}`, '', 'SoleStudio'].join('\n'),
    html: page([`<p>${escapeHtml(hello)}</p>`, `<p>${escapeHtml(body)}</p>`, button(link, open)]),
  };
}

/** A publication ended: how many of the pictures went on the card, and where to see each one's fate. */
export function publicationFinishedMail(
  locale: Locale,
  username: string,
  outcome: { status: 'done' | 'partial' | 'failed'; applied: number; failed: number; platform: string; product: string },
  link: string,
): Rendered {
  const vars = { platform: outcome.platform, product: outcome.product, applied: outcome.applied, failed: outcome.failed };
  const hello = text(locale, 'mail.hello', { name: username });
  const body = text(locale, `mail.publication.body.${outcome.status}`, vars);
  const open = text(locale, 'mail.publication.open');
  return {
    subject: text(locale, `mail.publication.subject.${outcome.status}`, vars),
    text: [hello, '', body, '', `${open}: ${link}`, '', 'SoleStudio'].join('\n'),
    html: page([`<p>${escapeHtml(hello)}</p>`, `<p>${escapeHtml(body)}</p>`, button(link, open)]),
  };
}
