// Texts the server sends to people (error messages), in each supported language.
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales';

const ru = {
  BAD_REQUEST: 'Некорректный запрос.',
  VALIDATION_FAILED: 'Проверьте поля: {fields}.',
  UNAUTHORIZED: 'Войдите, чтобы продолжить.',
  NOT_FOUND: 'Не найдено.',
  ROUTE_NOT_FOUND: 'Такого адреса API нет: {method} {url}.',
  METHOD_NOT_ALLOWED: 'Этот метод не поддерживается.',
  PAYLOAD_TOO_LARGE: 'Слишком большой запрос.',
  UNSUPPORTED_MEDIA_TYPE: 'Неподдерживаемый тип содержимого.',
  RATE_LIMITED: 'Слишком много запросов. Повторите через {seconds} с.',
  INTERNAL: 'Внутренняя ошибка сервера. Пожалуйста, обратитесь в поддержку.',
  UNAVAILABLE: 'Сервис временно недоступен. Повторите попытку позже.',
  OK: 'Готово.',
  SIGNED_IN: 'Вы вошли в аккаунт.',
  EMAIL_TAKEN: 'Этот e-mail уже зарегистрирован.',
  USERNAME_TAKEN: 'Это имя пользователя уже занято.',
  INVALID_CREDENTIALS: 'Неверное имя пользователя, e-mail или пароль.',
  EMAIL_NOT_VERIFIED: 'Сначала подтвердите e-mail по ссылке из письма. Письмо можно отправить ещё раз.',
  CODE_INVALID: 'Неверный или просроченный код. Запросите новый.',
  LINK_INVALID: 'Ссылка недействительна или срок её действия истёк.',
  WRONG_PASSWORD: 'Текущий пароль указан неверно.',
  REGISTERED: 'Регистрация прошла успешно. Мы отправили письмо для подтверждения e-mail.',
  CODE_SENT: 'Если этот e-mail зарегистрирован, мы отправили на него код.',
  CODE_VERIFIED: 'Код подтверждён.',
  PASSWORD_RESET: 'Пароль изменён. Войдите с новым паролем.',
  PASSWORD_CHANGED: 'Пароль изменён.',
  VERIFICATION_SENT: 'Если этот e-mail ждёт подтверждения, мы отправили новое письмо.',
  EMAIL_VERIFIED: 'E-mail подтверждён.',
  SIGNED_OUT: 'Вы вышли из аккаунта.',
  FEEDBACK_RECEIVED: 'Спасибо! Мы получили ваше сообщение.',
};

export type MessageKey = keyof typeof ru;

const en: Record<MessageKey, string> = {
  BAD_REQUEST: 'The request is malformed.',
  VALIDATION_FAILED: 'Please check these fields: {fields}.',
  UNAUTHORIZED: 'Please sign in to continue.',
  NOT_FOUND: 'Not found.',
  ROUTE_NOT_FOUND: 'There is no such API address: {method} {url}.',
  METHOD_NOT_ALLOWED: 'This method is not supported.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'This content type is not supported.',
  RATE_LIMITED: 'Too many requests. Try again in {seconds} s.',
  INTERNAL: 'Internal server error. Please contact support.',
  UNAVAILABLE: 'The service is temporarily unavailable. Please try again later.',
  OK: 'Done.',
  SIGNED_IN: 'You are signed in.',
  EMAIL_TAKEN: 'This e-mail is already registered.',
  USERNAME_TAKEN: 'This username is already taken.',
  INVALID_CREDENTIALS: 'Wrong username, e-mail or password.',
  EMAIL_NOT_VERIFIED: 'Please confirm your e-mail with the link we sent first. You can have it sent again.',
  CODE_INVALID: 'The code is wrong or has expired. Request a new one.',
  LINK_INVALID: 'The link is invalid or has expired.',
  WRONG_PASSWORD: 'The current password is wrong.',
  REGISTERED: 'You are registered. We sent you a message to confirm your e-mail.',
  CODE_SENT: 'If this e-mail is registered, we have sent a code to it.',
  CODE_VERIFIED: 'The code is confirmed.',
  PASSWORD_RESET: 'Your password has been reset. Sign in with the new one.',
  PASSWORD_CHANGED: 'Your password has been changed.',
  VERIFICATION_SENT: 'If this e-mail is waiting for confirmation, we have sent a new message.',
  EMAIL_VERIFIED: 'Your e-mail is confirmed.',
  SIGNED_OUT: 'You have signed out.',
  FEEDBACK_RECEIVED: 'Thank you! We have received your message.',
};

const zh: Record<MessageKey, string> = {
  BAD_REQUEST: '请求格式不正确。',
  VALIDATION_FAILED: '请检查以下字段：{fields}。',
  UNAUTHORIZED: '请先登录。',
  NOT_FOUND: '未找到。',
  ROUTE_NOT_FOUND: '不存在该 API 地址：{method} {url}。',
  METHOD_NOT_ALLOWED: '不支持该请求方法。',
  PAYLOAD_TOO_LARGE: '请求内容过大。',
  UNSUPPORTED_MEDIA_TYPE: '不支持该内容类型。',
  RATE_LIMITED: '请求过于频繁，请在 {seconds} 秒后重试。',
  INTERNAL: '服务器内部错误，请联系客服。',
  UNAVAILABLE: '服务暂时不可用，请稍后再试。',
  OK: '完成。',
  SIGNED_IN: '登录成功。',
  EMAIL_TAKEN: '该邮箱已被注册。',
  USERNAME_TAKEN: '该用户名已被占用。',
  INVALID_CREDENTIALS: '用户名、邮箱或密码错误。',
  EMAIL_NOT_VERIFIED: '请先通过邮件中的链接确认邮箱。您可以重新发送邮件。',
  CODE_INVALID: '验证码错误或已过期，请重新获取。',
  LINK_INVALID: '链接无效或已过期。',
  WRONG_PASSWORD: '当前密码不正确。',
  REGISTERED: '注册成功，我们已发送邮箱确认邮件。',
  CODE_SENT: '如果该邮箱已注册，我们已向其发送验证码。',
  CODE_VERIFIED: '验证码已确认。',
  PASSWORD_RESET: '密码已重置，请使用新密码登录。',
  PASSWORD_CHANGED: '密码已修改。',
  VERIFICATION_SENT: '如果该邮箱尚待确认，我们已重新发送邮件。',
  EMAIL_VERIFIED: '邮箱已确认。',
  SIGNED_OUT: '您已退出登录。',
  FEEDBACK_RECEIVED: '谢谢！我们已收到您的留言。',
};

const catalogue: Record<Locale, Record<MessageKey, string>> = { ru, en, zh };

export function translate(
  locale: Locale,
  key: MessageKey,
  vars: Record<string, string | number> = {},
): string {
  const template = catalogue[locale][key] ?? catalogue[DEFAULT_LOCALE][key];
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in vars ? String(vars[name]) : match,
  );
}
