// A loopback proxy in front of a provider's stand-in, for races: the app is pointed at the proxy,
// which passes every request on unchanged, except one a test asks it to hold — that one reaches
// the stand-in only when the test releases it, as a provider answering slowly would.
import type http from 'node:http';
import { localServer } from './local-http';

/** Passes a stand-in's answer on as the proxy's own: its status, headers (but those of the hop) and body. */
export async function relay(answer: Response, response: http.ServerResponse): Promise<void> {
  const passed: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) passed[name] = value;
  });
  response.writeHead(answer.status, passed);
  response.end(Buffer.from(await answer.arrayBuffer()));
}

export interface Held {
  /** Resolves when the held request has reached the proxy. */
  arrived: Promise<void>;
  /** Lets the held request go on to the stand-in. */
  release(): void;
}

export async function heldProxy(target: () => string) {
  let waiting: { method: string; path: string; arrived: () => void; released: Promise<void> } | null = null;
  const server = await localServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const path = request.url ?? '/';
      const hold = waiting && request.method === waiting.method && path === waiting.path ? waiting : null;
      if (hold) {
        waiting = null;
        hold.arrived();
        await hold.released;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0])),
      );
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      try {
        const answer = await fetch(`${target()}${path}`, { method: request.method, headers, body });
        await relay(answer, response);
      } catch {
        response.destroy();
      }
    });
  });
  return {
    origin: server.origin,
    /** Holds the next request with this method and path (query included) until released. */
    hold(method: string, path: string): Held {
      let arrived!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      waiting = { method, path, arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived: reached, release };
    },
    close: () => server.close(),
  };
}

/** Resolves when `promise` settles or `ms` pass, whichever is first (an answer that should wait, or not). */
export const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
