// The caller's language, from Accept-Language (every client call sends it, SPEC §7).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_LOCALE, localeFromAcceptLanguage, type Locale } from '../../contract/locales';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

export const localePlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('locale', DEFAULT_LOCALE);
    app.addHook('onRequest', async (request) => {
      request.locale = localeFromAcceptLanguage(request.headers['accept-language']);
    });
  },
  { name: 'locale' },
);
