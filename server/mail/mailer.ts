// Outgoing mail: through SMTP when SMTP_URL is set, otherwise written as .eml files to
// DATA_DIR/mail, so a single machine works with nothing else installed. The log says where a
// mail was written and never what it says: a link or a code in a log is a key for whoever reads it.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Transporter, createTransport } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'file';
  /** Sends; `log` (the server's by default) says where a mail written to a file went. */
  send(message: MailMessage, log?: FastifyBaseLogger): Promise<void>;
  close(): void;
}

/**
 * nodemailer's transport, made at the first mail: most starts send none, and the module costs
 * start-up time. `close` closes it only if it was made.
 */
function lazyTransport(options: Parameters<typeof createTransport>[0]) {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    close: () => void made?.then((transport) => transport.close()),
  };
}

export function createMailer(
  options: { smtpUrl: string | undefined; mailDir: string; from: string },
  log: FastifyBaseLogger,
): Mailer {
  if (options.smtpUrl) {
    const transport = lazyTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send({ to, subject, text, html }) {
        await (await transport.get()).sendMail({ from: options.from, to, subject, text, html });
      },
      close: transport.close,
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send({ to, subject, text, html }, sendLog = log) {
      const info = await (await transport.get()).sendMail({ from: options.from, to, subject, text, html });
      await fs.mkdir(options.mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      const file = path.join(options.mailDir, name);
      // Written beside and renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.part`, info.message as Buffer);
      await fs.rename(`${file}.part`, file);
      sendLog.info({ to, file }, `mail to ${to} written to ${file}`);
    },
    close: transport.close,
  };
}
