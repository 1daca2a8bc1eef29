// A real SMTP server on loopback that the app under test sends to (SMTP_URL), with a way to
// wait for the next message to an address.
import { SMTPServer } from 'smtp-server';
import { readMessage, type ReadMessage } from './mime';

export interface Mailbox {
  url: string;
  /** Resolves with the next message to `to` not yet taken. */
  next(to: string, timeoutMs?: number): Promise<ReadMessage>;
  /** Messages received so far, taken or not. */
  all(): ReadMessage[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ReadMessage[] = [];
  const taken = new Set<ReadMessage>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(readMessage(Buffer.concat(chunks).toString('utf8')));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  const find = (to: string) => received.find((m) => !taken.has(m) && m.to.includes(to));
  return {
    url: `smtp://127.0.0.1:${port}`,
    all: () => [...received],
    next(to, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const message = find(to);
          if (!message) return;
          taken.add(message);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
