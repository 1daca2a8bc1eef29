// What keeps a signed-in app current without reloading (SPEC §4 notifications, §7 "a periodic
// background call every 60 s"): the wallet and the subscription read every minute while the page
// is visible and online, the wallet on the wallet-refresh event,
// and the event stream: tasks that ended, a balance that moved (a top-up landed), and publications
// to a store that ended. The stream opens with a one-minute, single-use ticket (never the
// session token in a URL); when it drops, a fresh ticket reopens it with growing waits.
import { retryDelayMs } from '../../contract/backoff';
import { eventTicketSchema, taskEventSchema, type TaskEvent } from '../../contract/content';
import { okEnvelope } from '../../contract/envelope';
import { safeParse } from 'zod/v4/core';
import { showToast } from '../components/toast';
import { apiRequest } from '../lib/api-client';
import { announcePublicationUpdate, announceTaskUpdate, announceWalletUpdate, WALLET_REFRESH_EVENT } from '../lib/app-events';
import { publicationEventSchema, type PublicationEvent } from '../../contract/publisher';
import { walletEventSchema } from '../../contract/billing';
import { balanceAtom, store } from '../lib/store';
import { i18next } from '../lib/i18n';
import { refreshBalance, refreshSubscription } from './session';

export const WALLET_REFRESH_MS = 60_000;
/** SPEC §8: post-submit toasts, and these, stay 6 s. */
const EVENT_TOAST_MS = 6_000;
const FIRST_RECONNECT_MS = 2_000;
const LONGEST_RECONNECT_MS = 60_000;

const ticketSchema = okEnvelope(eventTicketSchema);

/** The toast a finished task gives, in the seller's language. */
export function taskEventToast(event: TaskEvent): { message: string; tone: 'success' | 'info' | 'error' } {
  const t = i18next.t.bind(i18next);
  if (event.status === 'completed') return { message: t('events.completed'), tone: 'success' };
  if (event.status === 'partially_completed') return { message: t('events.partially_completed'), tone: 'info' };
  if (event.failure_type === 'manual_rejection') return { message: t('events.manual_rejection'), tone: 'error' };
  return { message: t('events.failed'), tone: 'error' };
}

/** The toast an ended publication gives. */
export function publicationEventToast(event: PublicationEvent): { message: string; tone: 'success' | 'info' | 'error' } {
  const message = i18next.t(`publisher.event.${event.status}`, { applied: event.applied, failed: event.failed });
  return { message, tone: event.status === 'done' ? 'success' : event.status === 'partial' ? 'info' : 'error' };
}

function quietly(promise: Promise<unknown>) {
  promise.catch(() => {});
}

/** Starts the wallet refresh and the event stream; the returned function stops both. */
export function startLive(): () => void {
  let stopped = false;
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let connecting = false;

  const refresh = () => quietly(refreshBalance());
  // The wallet and the plan (a renewal, an expiry, a cancellation that took effect) while the page is seen.
  const everyMinute = setInterval(() => {
    if (document.visibilityState !== 'visible' || !navigator.onLine) return;
    refresh();
    quietly(refreshSubscription());
  }, WALLET_REFRESH_MS);
  window.addEventListener(WALLET_REFRESH_EVENT, refresh);

  const reconnectLater = () => {
    clearTimeout(retryTimer);
    if (stopped) return;
    failures += 1;
    const wait = retryDelayMs(failures, { firstMs: FIRST_RECONNECT_MS, longestMs: LONGEST_RECONNECT_MS, jitter: 0.2 });
    retryTimer = setTimeout(() => void connect(), wait);
  };

  const connect = async () => {
    if (stopped || source || connecting || !navigator.onLine) return;
    connecting = true;
    try {
      const { ticket } = (await apiRequest('/api/v1/content/events/ticket', { method: 'POST', schema: ticketSchema })).data;
      if (stopped || source) return;
      const stream = new EventSource(`/api/v1/events?ticket=${encodeURIComponent(ticket)}`);
      source = stream;
      stream.onopen = () => {
        failures = 0;
      };
      stream.addEventListener('task_updated', (message) => {
        const parsed = safeParse(taskEventSchema, JSON.parse((message as MessageEvent<string>).data));
        if (!parsed.success) return;
        const toast = taskEventToast(parsed.data);
        showToast(toast.message, toast.tone, EVENT_TOAST_MS);
        announceTaskUpdate(parsed.data);
        // A failed output was refunded: the balance has changed.
        refresh();
      });
      stream.addEventListener('wallet_updated', (message) => {
        const parsed = safeParse(walletEventSchema, JSON.parse((message as MessageEvent<string>).data));
        if (!parsed.success) return;
        store.set(balanceAtom, parsed.data.total_tokens);
        announceWalletUpdate();
        // A period paid or lapsed moves the expiry date and perhaps the plan: read both as they now are.
        refresh();
        quietly(refreshSubscription());
      });
      stream.addEventListener('publication_updated', (message) => {
        const parsed = safeParse(publicationEventSchema, JSON.parse((message as MessageEvent<string>).data));
        if (!parsed.success) return;
        const toast = publicationEventToast(parsed.data);
        showToast(toast.message, toast.tone, EVENT_TOAST_MS);
        announcePublicationUpdate(parsed.data);
      });
      // The ticket was spent on the first connection: the browser's own reconnect would be refused.
      stream.onerror = () => {
        stream.close();
        if (source === stream) source = null;
        reconnectLater();
      };
    } catch {
      reconnectLater();
    } finally {
      connecting = false;
    }
  };

  const online = () => {
    failures = 0;
    void connect();
  };
  window.addEventListener('online', online);
  void connect();

  return () => {
    stopped = true;
    clearInterval(everyMinute);
    clearTimeout(retryTimer);
    window.removeEventListener(WALLET_REFRESH_EVENT, refresh);
    window.removeEventListener('online', online);
    source?.close();
    source = null;
  };
}
