// /api/v1/tokens (SPEC §7 Tokens): the seller's balance, from the ledger's wallet.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenResponses } from '../../../contract/responses';
import { translate } from '../../lib/i18n';
import { currentUser } from '../../plugins/auth';
import { balanceOf } from '../../ledger/ledger';

export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/balance',
    {
      schema: {
        summary: 'The token balance',
        tags: ['tokens'],
        security: [{ bearer: [] }],
        response: tokenResponses.balance,
      },
      onRequest: app.requireUser,
    },
    async (request) => ({
      code: 200,
      message: translate(request.locale, 'OK'),
      data: { total_tokens: await balanceOf(app.database.db, currentUser(request).user.id) },
    }),
  );
};
