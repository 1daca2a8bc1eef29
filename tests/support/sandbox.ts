// Notifications as the embedded sandbox signs them, for a test to send itself: the genuine one
// again (a replay), one signed long ago, or one whose signature or body was changed (a forgery).
import crypto from 'node:crypto';
import { SANDBOX_SIGNATURE_HEADER } from '../../server/billing/providers/sandbox';
import { SANDBOX_WEBHOOK_PATH } from '../../server/plugins/billing';
import type { TestApp } from './test-app';

export interface SandboxNotification {
  body: string;
  headers: Record<string, string>;
}

/** `event` signed with the app's sandbox key at `timestamp` (seconds; now unless given). */
export function signedSandboxNotification(t: TestApp, event: object, timestamp = Math.floor(Date.now() / 1000)): SandboxNotification {
  const secret = crypto.createHmac('sha256', t.app.signingKey).update('sandbox-notifications').digest();
  const body = JSON.stringify(event);
  const signature = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}` } };
}

/** The same notification with one character of its signature changed. */
export function withForgedSignature(notification: SandboxNotification): SandboxNotification {
  const header = notification.headers[SANDBOX_SIGNATURE_HEADER]!;
  return { ...notification, headers: { ...notification.headers, [SANDBOX_SIGNATURE_HEADER]: header.replace(/v1=(.)/, (_, first: string) => `v1=${first === '0' ? '1' : '0'}`) } };
}

/** Posts a notification to the sandbox's webhook, as the sandbox would. */
export function postToSandboxWebhook(t: TestApp, notification: SandboxNotification) {
  return t.app.inject({ method: 'POST', url: SANDBOX_WEBHOOK_PATH, payload: notification.body, headers: notification.headers });
}
