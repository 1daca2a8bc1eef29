// Serves the built web app: hashed assets cached for a year, the shell files (index.html,
// sw.js, version.json, the manifest) revalidated on every load, and every client route
// answered with index.html so deep links and reloads work. /api is never answered with it.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { isClientRoutePath } from '../../contract/routes';
import { sendRouteNotFound } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const ONE_DAY = 'public, max-age=86400';

const SHELL_FILES = new Set(['index.html', 'sw.js', 'version.json', 'manifest.webmanifest']);

export function cacheControlFor(relativePath: string): string {
  // A precompressed variant (index.html.br) is cached like the file it encodes.
  const normalised = relativePath.split(path.sep).join('/').replace(/\.(br|gz)$/, '');
  if (normalised.startsWith('assets/')) return IMMUTABLE;
  if (SHELL_FILES.has(normalised) || normalised.endsWith('.html')) return REVALIDATE;
  return ONE_DAY;
}

/** A navigation the app shell answers: a GET or HEAD for a client route. */
function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return isClientRoutePath(request.url.split('?')[0] ?? '/');
}

/** sha256 sources of the inline scripts in index.html, for the Content-Security-Policy. */
export function inlineScriptHashes(staticDir: string): string[] {
  const indexPath = path.join(staticDir, 'index.html');
  if (!fs.existsSync(indexPath)) return [];
  const html = fs.readFileSync(indexPath, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${crypto.createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

export function hasWebBuild(staticDir: string): boolean {
  return fs.existsSync(path.join(staticDir, 'index.html'));
}

export const webPlugin = fp<{ staticDir: string }>(
  async (app: FastifyInstance, { staticDir }) => {
    await app.register(fastifyStatic, {
      root: staticDir,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header('Cache-Control', cacheControlFor(path.relative(staticDir, filePath)));
      },
    });

    const sendShell = (reply: FastifyReply) =>
      reply.header('Cache-Control', REVALIDATE).sendFile('index.html');

    app.get('/', { schema: { hide: true } }, (_request, reply) => sendShell(reply));
    app.setNotFoundHandler((request, reply) =>
      isClientRoute(request) ? sendShell(reply) : sendRouteNotFound(request, reply),
    );
  },
  { name: 'web', dependencies: ['errors'] },
);
