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
