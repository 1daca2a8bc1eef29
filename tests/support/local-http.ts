// A plain HTTP server on loopback for page tests that need a server answering exactly what the
// test says (a proxy's HTML page, a broken envelope, storage on another origin). Each request is
// recorded with its method, path and headers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface LocalServer {
  /** `http://127.0.0.1:{port}`: each server is an origin of its own. */
  origin: string;
  /** Every request so far, oldest first. */
  seen: Seen[];
  close(): Promise<void>;
}

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse, seen: Seen[]) => void;

export async function localServer(handler: Handler): Promise<LocalServer> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    handler(request, response, seen);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `body` with `status` and the given headers. */
export function answer(response: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, headers);
  response.end(body);
}

/** Answers a JSON body. */
export function answerJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  answer(response, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}
