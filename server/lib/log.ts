// What the log may say about a request. Some addresses carry a key in their query — a
// verification link's token, an event ticket, a signed download's token or signature — and a
// key in a log is a key for whoever reads the log, so their values are left out. Every line a
// request logs carries its id (`reqId`), answered in the x-request-id header.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

const SECRET_PARAMETERS = new Set(['token', 'ticket', 'sig']);

/** The address with the values of its secret query parameters left out. */
export function withoutSecrets(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const kept = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      return SECRET_PARAMETERS.has(decodeURIComponentSafely(name)) ? `${name}=…` : pair;
    });
  return `${url.slice(0, query)}?${kept.join('&')}`;
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An id a proxy in front may give a request: letters, digits and `-_.:@`, up to 128 characters. */
const FORWARDED_ID = /^[\w.:@-]{1,128}$/;

/**
 * A request's id: the one a proxy in front gave it (X-Request-Id), so its log and ours name the
 * request alike, when it is a plain token that cannot forge a log line or a header; a fresh one
 * otherwise.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && FORWARDED_ID.test(given) ? given : crypto.randomUUID();
}

/** Fastify's request serializer, with the address cleaned of keys. */
function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options, with requests logged without the keys in their addresses. */
export function withSafeRequests(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: loggedRequest as never } };
}
