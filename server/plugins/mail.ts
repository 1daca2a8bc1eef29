// The mailer every route sends through (SMTP or .eml files, see mail/mailer.ts). The metrics
// count the mails waiting to be sent and how each sending ended.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type MailMessage, type Mailer } from '../mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /**
     * Sends without making the caller wait: a slow mail server must not slow a request down or
     * reveal, by timing, whether an address has an account. Failures are logged to `log` (the
     * request's or the job's, so the line names it; the server's by default).
     */
    sendMailLater(message: MailMessage, log?: FastifyBaseLogger): void;
  }
}

export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const mailer = createMailer(
      { smtpUrl: app.config.smtpUrl, mailDir: app.config.mailDir, from: app.config.mailFrom },
      app.log,
    );
    const pending = new Set<Promise<void>>();
    app.decorate('mailer', mailer);
    const metrics = app.metrics;
    app.decorate('sendMailLater', (message: MailMessage, log: FastifyBaseLogger = app.log) => {
      metrics?.mailQueued();
      const sending = mailer
        .send(message, log)
        .then(
          () => metrics?.mailSettled('sent'),
          (error: unknown) => {
            metrics?.mailSettled('failed');
            log.error({ err: error, to: message.to }, 'sending mail failed');
          },
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    });
    app.addHook('onClose', async () => {
      await Promise.allSettled([...pending]);
      mailer.close();
    });
  },
  { name: 'mail', dependencies: ['metrics'] },
);
