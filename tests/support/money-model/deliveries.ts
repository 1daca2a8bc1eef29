// The sandbox's notifications, held back on their way to our webhook so the money model decides
// when each arrives: the sandbox makes and signs them as always, a hook takes each off the wire
// (the sandbox sends every one twice; it is kept once), and the model delivers them later, in any
// order, and again (a replay) — each time signed afresh as the sandbox signs, since a run outlasts
// a signature's tolerance. Only the way between the provider and us is ours to play with here.
import type { FastifyInstance } from 'fastify';
import { SANDBOX_WEBHOOK_PATH } from '../../../server/plugins/billing';
import { signedSandboxNotification } from '../sandbox';
import type { TestApp } from '../test-app';

/** Marks a delivery the model makes itself, which the hook lets through to the webhook. */
const MODEL_DELIVERY = 'x-money-model-delivery';

/** A notification the sandbox sent, as it was written. */
export interface HeldNotification {
  eventId: string;
  type: string;
  checkoutId: string;
  /** The event, parsed; delivered as written. */
  event: Record<string, unknown>;
}

export interface Deliveries {
  /** Held back, not yet delivered, in the order the sandbox sent them. */
  readonly held: HeldNotification[];
  /** Delivered at least once, in the order first delivered. */
  readonly delivered: HeldNotification[];
  /** Delivers the held notification `index` (modulo how many are held); what the webhook answered. */
  deliver(index: number): Promise<{ notification: HeldNotification; changed: number } | null>;
  /** Delivers an already delivered notification again (modulo how many there are). */
  replay(index: number): Promise<{ notification: HeldNotification; changed: number } | null>;
  /** Forgets every notification (a new property run starts with none). */
  clear(): void;
}

/**
 * Installs the hook on an app not yet ready (createTestApp's `extend`), and answers the way to
 * deliver what it held. `testApp` is read when delivering, once the app is made.
 */
export function holdSandboxDeliveries(app: FastifyInstance, testApp: () => TestApp): Deliveries {
  const held: HeldNotification[] = [];
  const delivered: HeldNotification[] = [];
  const seen = new Set<string>();

  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST' || request.url !== SANDBOX_WEBHOOK_PATH || request.headers[MODEL_DELIVERY]) return;
    const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
    const event = JSON.parse(body) as { id: string; type: string; data: { checkout_id: string } };
    if (!seen.has(event.id)) {
      seen.add(event.id);
      held.push({ eventId: event.id, type: event.type, checkoutId: event.data.checkout_id, event });
    }
    // The sandbox takes any answer as delivered; ours says nothing changed, as nothing did yet.
    return reply.code(200).send({ code: 200, message: 'OK', data: { changed: 0 } });
  });

  const post = async (notification: HeldNotification) => {
    const signed = signedSandboxNotification(testApp(), notification.event);
    const answer = await testApp().app.inject({
      method: 'POST',
      url: SANDBOX_WEBHOOK_PATH,
      payload: signed.body,
      headers: { ...signed.headers, [MODEL_DELIVERY]: '1' },
    });
    if (answer.statusCode !== 200) throw new Error(`the webhook answered ${answer.statusCode} to ${notification.type} ${notification.eventId}: ${answer.body}`);
    return { notification, changed: (answer.json() as { data: { changed: number } }).data.changed };
  };

  return {
    held,
    delivered,
    async deliver(index) {
      if (held.length === 0) return null;
      const [notification] = held.splice(index % held.length, 1);
      delivered.push(notification!);
      return post(notification!);
    },
    async replay(index) {
      if (delivered.length === 0) return null;
      return post(delivered[index % delivered.length]!);
    },
    clear() {
      held.length = 0;
      delivered.length = 0;
    },
  };
}
