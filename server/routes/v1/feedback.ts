// POST /api/v1/feedback/ (SPEC §7): a message from the feedback page, kept on the server and
// tied to the seller when signed in.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { feedbackRequestSchema } from '../../../contract/auth';
import { feedbackResponses } from '../../../contract/responses';
import { translate } from '../../lib/i18n';
import { feedback } from '../../db/schema';

const PER_IP = { max: 10, windowMs: 60 * 60 * 1000 };

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/',
    {
      schema: {
        summary: 'Send feedback',
        tags: ['feedback'],
        body: feedbackRequestSchema,
        response: feedbackResponses.send,
      },
      preHandler: app.optionalUser,
    },
    async (request, reply) => {
      await app.limit(`feedback:ip:${request.ip}`, PER_IP);
      const [row] = await app.database.db
        .insert(feedback)
        .values({ userId: request.user?.id ?? null, content: request.body.content, locale: request.locale })
        .returning({ id: feedback.id, createdAt: feedback.createdAt });
      if (!row) throw new Error('feedback was not stored');
      return reply.code(201).send({
        code: 201,
        message: translate(request.locale, 'FEEDBACK_RECEIVED'),
        data: { id: row.id, created_at: row.createdAt.toISOString() },
      });
    },
  );
};
