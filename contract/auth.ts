// Accounts (SPEC §3, §5, §7 Auth and Feedback): the rules every form and the server share,
// and the body of every request and answer.
import { z } from 'zod';
import { rule } from './rules';
import { text } from './text';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const CODE_LENGTH = 6;
/** Seconds before another code or verification mail may be requested (SPEC §9). */
export const RESEND_COOLDOWN_S = 60;
export const FEEDBACK_MAX = 2000;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const required = (message = rule('required')) => text(rule('required')).trim().min(1, message);

export const emailRule = required().max(254, rule('email')).regex(EMAIL_PATTERN, rule('email'));

export const usernameRule = required().regex(
  new RegExp(`^[\\p{L}\\p{N}]{${USERNAME_MIN},${USERNAME_MAX}}$`, 'u'),
  rule('username'),
);

/** 8 to 20 characters with at least one letter, one digit and one symbol. */
export const passwordRule = text(rule('required'))
  .min(1, rule('required'))
  .min(PASSWORD_MIN, rule('password'))
  .max(PASSWORD_MAX, rule('password'))
  .regex(/\p{L}/u, rule('password'))
  .regex(/\p{N}/u, rule('password'))
  .regex(/[^\p{L}\p{N}\s]/u, rule('password'))
  .meta({ examples: ['Shoes4ever!'] });

/** An e-mail when it holds "@", otherwise a username of 3 to 20 characters. */
export const identifierRule = required(rule('identifier_required')).superRefine((value, ctx) => {
  if (value.includes('@')) {
    if (!EMAIL_PATTERN.test(value)) ctx.addIssue({ code: 'custom', message: rule('email') });
  } else if (value.length < USERNAME_MIN || value.length > USERNAME_MAX) {
    ctx.addIssue({ code: 'custom', message: rule('identifier_length') });
  }
});

export const codeRule = text(rule('code')).trim().regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), rule('code'));

/**
 * Adds "Passwords do not match." on the confirmation field; checked even while other fields
 * still have problems, so the form shows every mistake at once.
 */
function confirmed<T extends z.ZodObject>(schema: T, password: string, confirmation: string) {
  return schema.refine(
    (value) => {
      const record = value as Record<string, unknown>;
      return record[password] === record[confirmation];
    },
    {
      path: [confirmation],
      message: rule('password_mismatch'),
      when: ({ value }) => {
        const record = (value ?? {}) as Record<string, unknown>;
        return typeof record[password] === 'string' && typeof record[confirmation] === 'string' && record[confirmation] !== '';
      },
    },
  );
}

// Registration channel (SPEC §3, §9): sent as JSON text with key and extra.
export const CHANNELS = ['friend', 'promoter', 'offline', 'online', 'solestudio', 'other'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNELS_WITH_TEXT: readonly Channel[] = ['promoter', 'other'];
const CHANNEL_EXTRA_MAX = 100;

export const channelSchema = z
  .object({
    key: z.enum(CHANNELS, rule('channel')),
    extra: text().trim().max(CHANNEL_EXTRA_MAX, rule('too_long', { count: CHANNEL_EXTRA_MAX })).default(''),
  })
  .superRefine((value, ctx) => {
    if (CHANNELS_WITH_TEXT.includes(value.key) && !value.extra) {
      ctx.addIssue({ code: 'custom', path: ['extra'], message: rule('channel_extra') });
    }
  });
export type RegistrationChannel = z.infer<typeof channelSchema>;

/** The channel field of the register call: JSON text holding `{ key, extra }`. */
export const channelTextRule = text(rule('channel'))
  .max(400, rule('channel'))
  .meta({ examples: ['{"key":"friend","extra":""}'] })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: rule('channel') });
      return z.NEVER;
    }
  })
  .pipe(channelSchema);

const optionalText = (max: number) =>
  text().trim().max(max, rule('too_long', { count: max })).optional();

/** What the registration form and the register call share. */
const accountFields = {
  email: emailRule,
  username: usernameRule,
  password: passwordRule,
  password_confirm: text(rule('required')).min(1, rule('required')),
};

export const registerRequestSchema = confirmed(
  z.object({
    ...accountFields,
    channel: channelTextRule,
    phone: optionalText(32),
    contact_person: optionalText(60),
    store_count: z.number().int().min(0).max(100_000).optional(),
    area: optionalText(100),
  }),
  'password',
  'password_confirm',
);
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** The registration form: the channel as a choice plus free text, sent as JSON text. */
export const registerFormSchema = confirmed(
  z.object({
    ...accountFields,
    channel_key: z.enum(CHANNELS, rule('channel')),
    channel_extra: text().trim().max(CHANNEL_EXTRA_MAX, rule('too_long', { count: CHANNEL_EXTRA_MAX })),
  }),
  'password',
  'password_confirm',
).refine((value) => !CHANNELS_WITH_TEXT.includes(value.channel_key) || value.channel_extra.trim() !== '', {
  path: ['channel_extra'],
  message: rule('channel_extra'),
  when: ({ value }) => {
    const record = (value ?? {}) as Record<string, unknown>;
    return typeof record.channel_key === 'string' && typeof record.channel_extra === 'string';
  },
});
export type RegisterForm = z.output<typeof registerFormSchema>;

export function toRegisterRequest(form: RegisterForm): RegisterRequest {
  const extra = CHANNELS_WITH_TEXT.includes(form.channel_key) ? form.channel_extra : '';
  return {
    username: form.username,
    email: form.email,
    password: form.password,
    password_confirm: form.password_confirm,
    channel: JSON.stringify({ key: form.channel_key, extra }),
  };
}

export const loginRequestSchema = z.object({
  username_or_email: identifierRule,
  password: passwordRule,
  remember_me: z.boolean().default(false),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const forgotRequestSchema = z.object({ email: emailRule });
export const forgotVerifySchema = z.object({ email: emailRule, code: codeRule });
/** Step 1 of the forgot-password dialog. */
export const codeFormSchema = z.object({ code: codeRule });

/** Step 2 of the forgot-password dialog: the new password twice. */
export const newPasswordFormSchema = confirmed(
  z.object({
    new_password: passwordRule,
    confirm_password: text(rule('required')).min(1, rule('required')),
  }),
  'new_password',
  'confirm_password',
);

export const forgotResetSchema = confirmed(
  z.object({
    email: emailRule,
    code: codeRule,
    new_password: passwordRule,
    confirm_password: text(rule('required')).min(1, rule('required')),
  }),
  'new_password',
  'confirm_password',
);
export type ForgotResetRequest = z.input<typeof forgotResetSchema>;

export const changePasswordSchema = confirmed(
  z.object({
    current_password: text(rule('required'))
      .min(1, rule('required'))
      .min(PASSWORD_MIN, rule('current_password'))
      .max(200, rule('current_password')),
    new_password: passwordRule,
    confirm_password: text(rule('required')).min(1, rule('required')),
  }),
  'new_password',
  'confirm_password',
);
export type ChangePasswordRequest = z.input<typeof changePasswordSchema>;

export const resendVerificationSchema = z.object({ email: emailRule });
export const verifyEmailQuerySchema = z.object({ token: text().min(1).max(200) });

export const feedbackRequestSchema = z.object({
  content: required().max(FEEDBACK_MAX, rule('too_long', { count: FEEDBACK_MAX })),
});
export type FeedbackRequest = z.input<typeof feedbackRequestSchema>;

/** The user-info dialog (SPEC §3): phone, contact person, number of stores, area. */
export const userInfoFormSchema = z.object({
  phone: required(rule('phone'))
    .max(32, rule('phone'))
    .regex(/^\+?[\d\s()-]{5,}$/, rule('phone')),
  contact_person: required().max(60, rule('too_long', { count: 60 })),
  store_count: required(rule('store_count')).regex(/^\d{1,6}$/, rule('store_count')),
  area: required().max(100, rule('too_long', { count: 100 })),
});
export type UserInfoForm = z.output<typeof userInfoFormSchema>;

// Answers.

export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const tokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** When this session ends unless refreshed (ISO 8601). */
  expires_at: z.string(),
  remember_me: z.boolean(),
});
export type AccessToken = z.infer<typeof tokenSchema>;

/** session-refresh: the same session, extended, with a token carrying its new expiry. */
export const refreshedSessionSchema = tokenSchema.extend({ user: userSchema });
export type RefreshedSession = z.infer<typeof refreshedSessionSchema>;

export const registeredSchema = z.object({ user: userSchema });

export const verifiedEmailSchema = z.object({
  user: userSchema,
  /** Tokens credited by this verification (the sign-up bonus), 0 when it was already verified. */
  bonus_tokens: z.number().int().nonnegative(),
});

export const feedbackSchema = z.object({ id: z.string(), created_at: z.string() });

/** The wallet as the drawer shows it: the balance and the soonest moment some of it lapses. */
export const balanceSchema = z.object({
  total_tokens: z.number().int(),
  /** When a subscription period's tokens next lapse; null when none of the balance does. */
  expires_at: z.string().nullable(),
  /** How many tokens lapse then. */
  expiring_tokens: z.number().int(),
});
export type Balance = z.infer<typeof balanceSchema>;
