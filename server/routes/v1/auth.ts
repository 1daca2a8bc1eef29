// /api/v1/auth (SPEC §7 Auth): registration, e-mail verification, sign-in, sessions and
// password recovery. Rate limits count per IP and per e-mail or identifier.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { authResponses } from '../../../contract/responses';
import {
  RESEND_COOLDOWN_S,
  changePasswordSchema,
  forgotRequestSchema,
  forgotResetSchema,
  forgotVerifySchema,
  loginRequestSchema,
  registerRequestSchema,
  resendVerificationSchema,
  verifyEmailQuerySchema,
} from '../../../contract/auth';
import { HttpError } from '../../lib/errors';
import { translate, type MessageKey } from '../../lib/i18n';
import type { Limit } from '../../plugins/rate-limit';
import { currentUser } from '../../plugins/auth';
import { users, wallets } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../account/passwords';
import {
  createSession,
  extendSession,
  revokeSession,
  revokeUserSessions,
  signToken,
} from '../../account/sessions';
import {
  findUserByEmail,
  findUserByIdentifier,
  normaliseEmail,
  publicUser,
  setPasswordHash,
  usernameTaken,
} from '../../account/users';
import { checkResetCode, issueResetCode } from '../../account/codes';
import { issueVerificationToken, useVerificationToken } from '../../account/verification';
import { resetCodeMail, verificationMail } from '../../mail/templates';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The limits of this module, in one place (DESIGN §4). */
export const AUTH_LIMITS = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerIdentifier: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 10, windowMs: HOUR },
  mailCooldown: { max: 1, windowMs: RESEND_COOLDOWN_S * 1000 },
  mailPerAddress: { max: 5, windowMs: HOUR },
  mailPerIp: { max: 20, windowMs: HOUR },
  codeChecksPerAddress: { max: 10, windowMs: 15 * MINUTE },
  codeChecksPerIp: { max: 50, windowMs: 15 * MINUTE },
  passwordChangePerUser: { max: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;


export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  // Answers here carry tokens: compressing a secret beside text a caller chooses lets an observer
  // guess it from the sizes (BREACH), and the bodies are tiny anyway.
  app.addHook('onRoute', (route) => {
    route.compress = false;
  });
  // Signing out, refreshing, verifying and password changes alter sessions and sellers: any
  // remembered session is forgotten once such a request has committed (plugins/auth.ts).
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET') app.forgetSessions();
  });
  const ok = <T>(request: FastifyRequest, key: MessageKey, data: T) => ({
    code: 200,
    message: translate(request.locale, key),
    data,
  });

  /** Sends a new verification link to a seller. */
  const mailVerificationLink = async (user: { id: string; email: string; username: string }, request: FastifyRequest) => {
    const token = await issueVerificationToken(db, user.id);
    const link = `${app.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    app.sendMailLater({ to: user.email, ...verificationMail(request.locale, user.username, link) }, request.log);
  };

  /** Limits on messages to one address: one a minute (SPEC's 60 s resend) and a few an hour. */
  const limitMailTo = async (kind: string, request: FastifyRequest, email: string) => {
    await app.limit(`${kind}:ip:${request.ip}`, AUTH_LIMITS.mailPerIp);
    await app.limit(`${kind}:cooldown:${email}`, AUTH_LIMITS.mailCooldown);
    await app.limit(`${kind}:hour:${email}`, AUTH_LIMITS.mailPerAddress);
  };

  app.post(
    '/register',
    {
      schema: {
        summary: 'Create an account and mail a verification link',
        tags: ['auth'],
        body: registerRequestSchema,
        response: authResponses.register,
      },
    },
    async (request, reply) => {
      await app.limit(`register:ip:${request.ip}`, AUTH_LIMITS.registerPerIp);
      const body = request.body;
      const email = normaliseEmail(body.email);
      if (await findUserByEmail(db, email)) throw new HttpError(409, 'EMAIL_TAKEN', 'EMAIL_TAKEN');
      if (await usernameTaken(db, body.username)) throw new HttpError(409, 'USERNAME_TAKEN', 'USERNAME_TAKEN');
      const passwordHash = await hashPassword(body.password);
      let user;
      try {
        user = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              username: body.username,
              email,
              passwordHash,
              channel: body.channel,
              phone: body.phone || null,
              contactPerson: body.contact_person || null,
              storeCount: body.store_count ?? null,
              area: body.area || null,
              locale: request.locale,
            })
            .returning();
          if (!created) throw new Error('user was not created');
          await tx.insert(wallets).values({ userId: created.id });
          return created;
        });
      } catch (error) {
        // Two registrations racing for one name: the unique index decides.
        const constraint = (error as { cause?: { constraint?: string }; constraint?: string }).cause?.constraint
          ?? (error as { constraint?: string }).constraint;
        if (constraint === 'users_email_key') throw new HttpError(409, 'EMAIL_TAKEN', 'EMAIL_TAKEN');
        if (constraint === 'users_username_key') throw new HttpError(409, 'USERNAME_TAKEN', 'USERNAME_TAKEN');
        throw error;
      }
      await mailVerificationLink(user, request);
      return reply.code(201).send({
        code: 201,
        message: translate(request.locale, 'REGISTERED'),
        data: { user: publicUser(user) },
      });
    },
  );

  app.post(
    '/login/custom',
    {
      schema: {
        summary: 'Sign in with a username or e-mail and a password',
        tags: ['auth'],
        body: loginRequestSchema,
        response: authResponses.login,
      },
    },
    async (request) => {
      const { username_or_email: identifier, password, remember_me } = request.body;
      await app.limit(`login:ip:${request.ip}`, AUTH_LIMITS.loginPerIp);
      await app.limit(`login:id:${identifier.toLowerCase()}`, AUTH_LIMITS.loginPerIdentifier);
      const user = await findUserByIdentifier(db, identifier);
      if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
        throw new HttpError(401, 'INVALID_CREDENTIALS', 'INVALID_CREDENTIALS');
      }
      if (!user.emailVerifiedAt) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', 'EMAIL_NOT_VERIFIED');
      const session = await createSession(db, user.id, remember_me, request.headers['user-agent']);
      return ok(request, 'SIGNED_IN', signToken(app.signingKey, session, user));
    },
  );

  app.get(
    '/me',
    {
      schema: { summary: 'The signed-in seller', tags: ['auth'], security: [{ bearer: [] }], response: authResponses.me },
      onRequest: app.requireUser,
    },
    async (request) => ok(request, 'OK', publicUser(currentUser(request).user)),
  );

  app.post(
    '/logout',
    {
      schema: { summary: 'End this session', tags: ['auth'], security: [{ bearer: [] }], response: authResponses.logout },
      onRequest: app.requireUser,
    },
    async (request) => {
      await revokeSession(db, currentUser(request).session.id);
      return ok(request, 'SIGNED_OUT', null);
    },
  );

  app.post(
    '/refresh-token',
    {
      schema: {
        summary: 'Rotate the token: this session ends and a new one begins',
        tags: ['auth'],
        security: [{ bearer: [] }],
        response: authResponses.refreshToken,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user, session } = currentUser(request);
      const next = await db.transaction(async (tx) => {
        await revokeSession(tx, session.id);
        return createSession(tx, user.id, session.rememberMe, request.headers['user-agent']);
      });
      return ok(request, 'OK', signToken(app.signingKey, next, user));
    },
  );

  app.post(
    '/session-refresh',
    {
      schema: {
        summary: 'Check the session when the app starts and extend it',
        tags: ['auth'],
        security: [{ bearer: [] }],
        response: authResponses.sessionRefresh,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user, session } = currentUser(request);
      const extended = await extendSession(db, session);
      return ok(request, 'OK', { ...(signToken(app.signingKey, extended, user)), user: publicUser(user) });
    },
  );

  app.post(
    '/forgot-password/request',
    {
      schema: {
        summary: 'Mail a 6-digit reset code (the same answer for every address)',
        tags: ['auth'],
        body: forgotRequestSchema,
        response: authResponses.forgotPasswordRequest,
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      await limitMailTo('reset', request, email);
      const user = await findUserByEmail(db, email);
      if (user) {
        const code = await issueResetCode(db, app.signingKey, user.id);
        app.sendMailLater({ to: user.email, ...resetCodeMail(request.locale, user.username, code) }, request.log);
      }
      return ok(request, 'CODE_SENT', null);
    },
  );

  const limitCodeChecks = async (request: FastifyRequest, email: string) => {
    await app.limit(`code:ip:${request.ip}`, AUTH_LIMITS.codeChecksPerIp);
    await app.limit(`code:email:${email}`, AUTH_LIMITS.codeChecksPerAddress);
  };

  app.post(
    '/forgot-password/verify',
    {
      schema: {
        summary: 'Check a reset code without using it',
        tags: ['auth'],
        body: forgotVerifySchema,
        response: authResponses.forgotPasswordVerify,
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      await limitCodeChecks(request, email);
      const user = await findUserByEmail(db, email);
      if (!(await checkResetCode(db, app.signingKey, user?.id, request.body.code, { consume: false }))) {
        throw new HttpError(400, 'CODE_INVALID', 'CODE_INVALID');
      }
      return ok(request, 'CODE_VERIFIED', null);
    },
  );

  app.post(
    '/forgot-password/reset',
    {
      schema: {
        summary: 'Set a new password with a reset code; every session ends',
        tags: ['auth'],
        body: forgotResetSchema,
        response: authResponses.forgotPasswordReset,
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      await limitCodeChecks(request, email);
      const user = await findUserByEmail(db, email);
      if (!user || !(await checkResetCode(db, app.signingKey, user.id, request.body.code, { consume: true }))) {
        throw new HttpError(400, 'CODE_INVALID', 'CODE_INVALID');
      }
      const passwordHash = await hashPassword(request.body.new_password);
      await db.transaction(async (tx) => {
        await setPasswordHash(tx, user.id, passwordHash);
        await revokeUserSessions(tx, user.id);
      });
      return ok(request, 'PASSWORD_RESET', null);
    },
  );

  app.post(
    '/change-password',
    {
      schema: {
        summary: "Change the password; the seller's other sessions end",
        tags: ['auth'],
        security: [{ bearer: [] }],
        body: changePasswordSchema,
        response: authResponses.changePassword,
      },
      onRequest: app.requireUser,
    },
    async (request) => {
      const { user, session } = currentUser(request);
      await app.limit(`password:user:${user.id}`, AUTH_LIMITS.passwordChangePerUser);
      if (!(await verifyPassword(user.passwordHash, request.body.current_password))) {
        // 400, not 401: a mistyped password must not sign the seller out.
        throw new HttpError(400, 'WRONG_PASSWORD', 'WRONG_PASSWORD');
      }
      const passwordHash = await hashPassword(request.body.new_password);
      await db.transaction(async (tx) => {
        await setPasswordHash(tx, user.id, passwordHash);
        await revokeUserSessions(tx, user.id, session.id);
      });
      return ok(request, 'PASSWORD_CHANGED', null);
    },
  );

  app.get(
    '/verify-email',
    {
      schema: {
        summary: 'Confirm an e-mail address with the link from the message',
        tags: ['auth'],
        querystring: verifyEmailQuerySchema,
        response: authResponses.verifyEmail,
      },
    },
    async (request) => {
      const result = await useVerificationToken(db, app.ledger, request.query.token, app.config.signUpBonusTokens);
      if (!result) throw new HttpError(400, 'LINK_INVALID', 'LINK_INVALID');
      return ok(request, 'EMAIL_VERIFIED', { user: publicUser(result.user), bonus_tokens: result.bonus });
    },
  );

  app.post(
    '/resend-verification',
    {
      schema: {
        summary: 'Mail a new verification link (the same answer for every address)',
        tags: ['auth'],
        body: resendVerificationSchema,
        response: authResponses.resendVerification,
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      await limitMailTo('verify', request, email);
      const user = await findUserByEmail(db, email);
      if (user && !user.emailVerifiedAt) await mailVerificationLink(user, request);
      return ok(request, 'VERIFICATION_SENT', null);
    },
  );
};
