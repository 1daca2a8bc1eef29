// Who is calling: reads the bearer token, checks it against its server-side session, and gives
// routes `request.user` / `request.session`. Routes that need a seller add `app.requireUser`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/errors';
import { authenticate, refusal, tokenClaims, type SessionRow, type UserRow } from '../account/sessions';
import { loadSigningKey } from '../account/secrets';

declare module 'fastify' {
  interface FastifyInstance {
    signingKey: Uint8Array;
    /** preHandler: 401 unless the request carries a live session. */
    requireUser(request: FastifyRequest): Promise<void>;
    /** preHandler: reads the session when there is one, never refuses. */
    optionalUser(request: FastifyRequest): Promise<void>;
    /** Drops every remembered session: called when an account or session may have changed. */
    forgetSessions(): void;
  }
  interface FastifyRequest {
    user: UserRow | null;
    session: SessionRow | null;
    /** The seller's content version as read with the session on this request; null if not read. */
    contentVersion: number | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The signed-in seller of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): { user: UserRow; session: SessionRow } {
  if (!request.user || !request.session) throw new HttpError(401, 'UNAUTHORIZED', 'UNAUTHORIZED');
  return { user: request.user, session: request.session };
}

/** How long a live session is remembered, and how many at most. */
export const SESSION_MEMORY = { ms: 5_000, max: 10_000 };

type Found = NonNullable<Awaited<ReturnType<typeof authenticate>>>;

/**
 * The live sessions tokens named in the last few seconds. Only on the embedded database, whose one
 * writer is this process: the account routes forget them all whenever they change anything (see
 * routes/v1/auth.ts), and a session is never taken from memory past its expiry. A read that
 * started before a change is not remembered.
 */
function sessionMemory() {
  const entries = new Map<string, { found: Found; until: number }>();
  let generation = 0;
  return {
    get(token: string): Found | undefined {
      const entry = entries.get(token);
      if (!entry) return undefined;
      const now = Date.now();
      if (entry.until > now && entry.found.session.expiresAt.getTime() > now) return entry.found;
      entries.delete(token);
      return undefined;
    },
    async read(token: string, load: () => Promise<Found | null>): Promise<Found | null> {
      const started = generation;
      const found = await load();
      if (found && started === generation) {
        if (entries.size >= SESSION_MEMORY.max) entries.clear();
        entries.set(token, { found, until: Date.now() + SESSION_MEMORY.ms });
      }
      return found;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const key = await loadSigningKey(app.database.db, app.config.authSecret);
    app.decorate('signingKey', key);
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);
    app.decorateRequest('contentVersion', null);
    const memory = app.database.kind === 'pglite' ? sessionMemory() : null;
    app.decorate('forgetSessions', () => memory?.clear());

    const read = async (request: FastifyRequest) => {
      const token = bearer(request);
      if (!token) return false;
      const load = () => authenticate(app.database.db, key, token);
      // A remembered session still needs a token that is valid now.
      const remembered = memory && tokenClaims(key, token) ? memory.get(token) : undefined;
      const found = remembered ?? (memory ? await memory.read(token, load) : await load());
      if (!found) return false;
      request.user = found.user;
      request.session = found.session;
      // Read with the session just now, or not at all when the session came from memory.
      request.contentVersion = remembered ? null : found.contentVersion;
      return true;
    };
    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (await read(request)) return;
      const token = bearer(request);
      // A password changed on another device is said as such, so the app can tell the seller why.
      const reason = token ? await refusal(app.database.db, key, token) : 'UNAUTHORIZED';
      throw new HttpError(401, reason, reason);
    });
    app.decorate('optionalUser', async (request: FastifyRequest) => {
      await read(request);
    });
  },
  { name: 'auth' },
);
