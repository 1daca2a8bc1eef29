// The mail SoleStudio sends about accounts, in the seller's language, as plain text and HTML.
import type { Locale } from '../../contract/locales';

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const copy = {
  ru: {
    verifySubject: 'Подтвердите e-mail для SoleStudio',
    hello: (name: string) => `Здравствуйте, ${name}!`,
    verifyBody: 'Чтобы завершить регистрацию в SoleStudio, подтвердите адрес почты по ссылке:',
    verifyButton: 'Подтвердить e-mail',
    verifyExpiry: 'Ссылка действует 24 часа и срабатывает один раз.',
    codeSubject: 'Код для сброса пароля SoleStudio',
    codeBody: 'Ваш код для сброса пароля:',
    codeExpiry: 'Код действует 10 минут. Никому его не сообщайте.',
    ignore: 'Если вы этого не запрашивали, просто проигнорируйте письмо.',
  },
  en: {
    verifySubject: 'Confirm your e-mail for SoleStudio',
    hello: (name: string) => `Hello, ${name}!`,
    verifyBody: 'To finish signing up for SoleStudio, confirm your e-mail address with this link:',
    verifyButton: 'Confirm e-mail',
    verifyExpiry: 'The link works once and expires in 24 hours.',
    codeSubject: 'Your SoleStudio password reset code',
    codeBody: 'Your password reset code:',
    codeExpiry: 'The code expires in 10 minutes. Do not share it with anyone.',
    ignore: 'If you did not ask for this, you can ignore this message.',
  },
  zh: {
    verifySubject: '确认您的 SoleStudio 邮箱',
    hello: (name: string) => `${name}，您好！`,
    verifyBody: '请点击以下链接确认邮箱地址，完成 SoleStudio 注册：',
    verifyButton: '确认邮箱',
    verifyExpiry: '链接 24 小时内有效，仅可使用一次。',
    codeSubject: 'SoleStudio 密码重置验证码',
    codeBody: '您的密码重置验证码：',
    codeExpiry: '验证码 10 分钟内有效，请勿告知他人。',
    ignore: '如果这不是您本人的操作，请忽略此邮件。',
  },
} satisfies Record<Locale, unknown>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(paragraphs: string[]): string {
  return [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5">',
    ...paragraphs,
    '<p style="color:#777">SoleStudio</p></body></html>',
  ].join('\n');
}

export function verificationMail(locale: Locale, username: string, link: string): Rendered {
  const c = copy[locale];
  return {
    subject: c.verifySubject,
    text: [c.hello(username), '', c.verifyBody, link, '', c.verifyExpiry, c.ignore, '', 'SoleStudio'].join('\n'),
    html: page([
      `<p>${escapeHtml(c.hello(username))}</p>`,
      `<p>${escapeHtml(c.verifyBody)}</p>`,
      `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#5b4bff;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(c.verifyButton)}</a></p>`,
      `<p style="font-size:13px;word-break:break-all">${escapeHtml(link)}</p>`,
      `<p>${escapeHtml(c.verifyExpiry)} ${escapeHtml(c.ignore)}</p>`,
    ]),
  };
}

export function resetCodeMail(locale: Locale, username: string, code: string): Rendered {
  const c = copy[locale];
  return {
    subject: c.codeSubject,
    text: [c.hello(username), '', c.codeBody, code, '', c.codeExpiry, c.ignore, '', 'SoleStudio'].join('\n'),
    html: page([
      `<p>${escapeHtml(c.hello(username))}</p>`,
      `<p>${escapeHtml(c.codeBody)}</p>`,
      `<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(code)}</p>`,
      `<p>${escapeHtml(c.codeExpiry)} ${escapeHtml(c.ignore)}</p>`,
    ]),
  };
}

const taskCopy = {
  ru: {
    completed: 'Ваши материалы готовы',
    partially_completed: 'Материалы готовы частично',
    failed: 'Задачу не удалось выполнить',
    completedBody: 'Задача выполнена: все материалы готовы и ждут вас в истории задач.',
    partialBody: 'Часть материалов готова и ждёт вас в истории задач. Токены за то, что не получилось, возвращены.',
    rejectedBody: 'Некоторые фото не прошли проверку. Причины и кнопка повтора — в истории задач. Токены возвращены.',
    failedBody: 'Из-за ошибки на нашей стороне задача не выполнена. Токены возвращены.',
    open: 'Открыть историю задач',
  },
  en: {
    completed: 'Your content is ready',
    partially_completed: 'Part of your content is ready',
    failed: 'Your task could not be completed',
    completedBody: 'Your task is done: every result is waiting for you in the task history.',
    partialBody: 'Part of your results are ready in the task history. The tokens for what could not be made were refunded.',
    rejectedBody: 'Some photos did not pass the check. The reasons and a retry button are in the task history. Your tokens were refunded.',
    failedBody: 'An error on our side stopped the task. Your tokens were refunded.',
    open: 'Open task history',
  },
  zh: {
    completed: '您的内容已生成',
    partially_completed: '部分内容已生成',
    failed: '任务未能完成',
    completedBody: '任务已完成：所有结果都在任务历史中等您查看。',
    partialBody: '部分结果已在任务历史中生成，未能生成部分的代币已退还。',
    rejectedBody: '部分照片未通过检查。原因和重试按钮见任务历史。代币已退还。',
    failedBody: '由于我们这边的错误，任务未能完成。代币已退还。',
    open: '打开任务历史',
  },
} satisfies Record<Locale, unknown>;

/** The notice sent when a task ends (SPEC §4: processing promises an e-mail). */
export function taskFinishedMail(
  locale: Locale,
  username: string,
  outcome: { status: 'completed' | 'partially_completed' | 'failed'; failureType: string | null },
  link: string,
): Rendered {
  const c = taskCopy[locale];
  const body =
    outcome.status === 'completed'
      ? c.completedBody
      : outcome.status === 'partially_completed'
        ? c.partialBody
        : outcome.failureType === 'manual_rejection'
          ? c.rejectedBody
          : c.failedBody;
  const hello = copy[locale].hello(username);
  return {
    subject: c[outcome.status],
    text: [hello, '', body, '', `${c.open}: ${link}`, '', 'SoleStudio'].join('\n'),
    html: page([
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(body)}</p>`,
      `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#5b4bff;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(c.open)}</a></p>`,
    ]),
  };
}
