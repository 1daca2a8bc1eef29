// Russian: the texts of the form rules (SPEC §5). A rule in contract/rules.ts fails with
// `rule:<name>`; the page and the server both say it from here, so a rule's words are written once.
const rules = {
  rules: {
    required: 'Заполните это поле.',
    identifier_required: 'Введите e-mail или имя пользователя.',
    identifier_length: 'Имя пользователя — от 3 до 20 символов.',
    email: 'Введите корректный e-mail.',
    username: 'Имя пользователя — от 3 до 20 букв или цифр.',
    password: 'Пароль — от 8 до 20 символов, с буквами, цифрами и символами.',
    current_password: 'Текущий пароль — не короче 8 символов.',
    password_mismatch: 'Пароли не совпадают.',
    code: 'Код — ровно 6 цифр.',
    channel: 'Выберите, откуда вы о нас узнали.',
    channel_extra: 'Уточните, пожалуйста.',
    too_long_one: 'Слишком длинный текст (не больше {{count}} символа).',
    too_long_few: 'Слишком длинный текст (не больше {{count}} символов).',
    too_long_many: 'Слишком длинный текст (не больше {{count}} символов).',
    too_long_other: 'Слишком длинный текст (не больше {{count}} символа).',
    phone: 'Введите номер телефона.',
    store_count: 'Укажите число магазинов — целое число от 0.',
    text: 'Текст содержит недопустимые символы.',
    store_key: 'Вставьте ключ точно так, как его показывает площадка: без пробелов и лишних знаков.',
    store_client_id: 'Client-Id — это число из личного кабинета.',
    too_deep_one: 'Слишком глубокая вложенность (не больше {{count}} уровня).',
    too_deep_few: 'Слишком глубокая вложенность (не больше {{count}} уровней).',
    too_deep_many: 'Слишком глубокая вложенность (не больше {{count}} уровней).',
    too_deep_other: 'Слишком глубокая вложенность (не больше {{count}} уровня).',
  },
};

export default rules;
