// Who is calling: reads the bearer token, checks it against its server-side session, and gives
// routes `request.user` / `request.session`. Routes that need a seller add `app.requireUser`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/errors';
import { authenticate, type SessionRow, type UserRow } from '../account/sessions';
import { loadSigningKey } from '../account/secrets';

declare module 'fastify' {
  interface FastifyInstance {
    signingKey: Uint8Array;
    /** preHandler: 401 unless the request carries a live session. */
    requireUser(request: FastifyRequest): Promise<void>;
    /** preHandler: reads the session when there is one, never refuses. */
    optionalUser(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    user: UserRow | null;
    session: SessionRow | null;
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

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const key = await loadSigningKey(app.database.db, app.config.authSecret);
    app.decorate('signingKey', key);
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);

    const read = async (request: FastifyRequest) => {
      const token = bearer(request);
      if (!token) return false;
      const found = await authenticate(app.database.db, key, token);
      if (!found) return false;
      request.user = found.user;
      request.session = found.session;
      return true;
    };
    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!(await read(request))) throw new HttpError(401, 'UNAUTHORIZED', 'UNAUTHORIZED');
    });
    app.decorate('optionalUser', async (request: FastifyRequest) => {
      await read(request);
    });
  },
  { name: 'auth' },
);
