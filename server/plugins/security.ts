// HTTP security headers. The Content-Security-Policy admits only this origin's scripts (plus
// the inline start-up script of index.html, by hash), its service worker and its manifest; with
// an S3 bucket, the page also uploads to it and shows pictures and videos from it.
// Helmet's middleware is built once and applied to every response (building it parses the
// policy, which would otherwise cost each request as much as a cached list answer).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

export interface SecurityOptions {
  /** `'sha256-…'` sources of inline scripts the shell needs. */
  scriptHashes: string[];
  /** Served over https: send HSTS and upgrade stray http requests. */
  https: boolean;
  /** Origins of the object storage the browser uploads to and reads from (an S3 bucket's). */
  storageOrigins: string[];
}

export const securityPlugin = fp<SecurityOptions>(
  async (app: FastifyInstance, { scriptHashes, https, storageOrigins }) => {
    const headers = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...scriptHashes],
          // Ionic sets inline style attributes on its components.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...storageOrigins],
          mediaSrc: ["'self'", 'blob:', ...storageOrigins],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...storageOrigins],
          workerSrc: ["'self'", 'blob:'],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: 'security' },
);
