// The embedded mail outbox (DATA_DIR/mail): complete .eml files, newest first.
import fs from 'node:fs';
import path from 'node:path';
import { readMessage, type ReadMessage } from './mime';

export function outbox(dataDir: string, after = 0): ReadMessage[] {
  const dir = path.join(dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => ({ file: path.join(dir, name), at: fs.statSync(path.join(dir, name)).mtimeMs }))
    .filter((entry) => entry.at > after)
    .sort((a, b) => b.at - a.at)
    .map((entry) => readMessage(fs.readFileSync(entry.file, 'utf8')));
}

/** Waits for the newest message to `to`. */
export async function waitForMail(dataDir: string, to: string, { after = 0, timeoutMs = 10_000 } = {}): Promise<ReadMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = outbox(dataDir, after).find((m) => m.to.includes(to));
    if (message) return message;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for a message to `to` whose subject says `words` (mail is sent after the change that causes it commits). */
export async function waitForSubject(dataDir: string, to: string, words: string, { timeoutMs = 10_000 } = {}): Promise<ReadMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sent = outbox(dataDir).filter((m) => m.to.includes(to));
    const message = sent.find((m) => m.subject.includes(words));
    if (message) return message;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} saying "${words}": ${sent.map((m) => m.subject).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
