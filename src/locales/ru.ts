// Russian: the default and fallback language, and the type source for every translation key.
// The account screens' texts live in ru-account.ts and load with those screens.
import type ruAccount from './ru-account';

const ru = {
  app: {
    name: 'SoleStudio',
    tagline: 'Маркетинговые фото и видео для продавцов обуви',
  },
  a11y: {
    skipToContent: 'Перейти к содержимому',
    openMenu: 'Открыть меню',
    closeMenu: 'Закрыть меню',
    mainNavigation: 'Основная навигация',
    home: 'SoleStudio — на главную',
  },
  theme: {
    toLight: 'Включить светлую тему',
    toDark: 'Включить тёмную тему',
  },
  language: {
    label: 'Язык',
    choose: 'Выберите язык',
    names: { ru: 'Русский', en: 'English', zh: '中文' },
  },
  nav: {
    login: 'Войти',
    register: 'Регистрация',
    home: 'Рабочее пространство',
    taskHistory: 'История задач',
    materialHistory: 'Мои материалы',
    subscriptionManage: 'Управление подпиской',
    consumptionHistory: 'История расходов',
    feedback: 'Обратная связь',
    changePassword: 'Сменить пароль',
    contactUs: 'Связаться с нами',
    logout: 'Выйти',
    recharge: 'Пополнить',
    subscribe: 'Оформить подписку',
    account: 'Аккаунт',
  },
  footer: {
    terms: 'Условия использования',
    privacy: 'Политика конфиденциальности',
    contact: 'Контакты',
    rights: '© {{year}} SoleStudio',
  },
  landing: {
    title: 'Фото и видео, которые продают обувь',
    lead: 'Сфотографируйте пару с шести ракурсов прямо на телефон — даже без сети — и получите студийные кадры, постеры, цветовые карточки, фото на модели и короткие видео для маркетплейсов.',
    users: 'Более 50 000 продавцов',
    usersNote: 'уже создают контент в SoleStudio',
    start: 'Начать',
    signedOut: {
      passwordChanged: 'Вы вышли из аккаунта: пароль был изменён на другом устройстве.',
      dismiss: 'Понятно',
    },
    shoesCard: {
      title: 'Для продавцов обуви',
      body: 'Шесть ракурсов — и готовые карточки для Wildberries, Ozon и Amazon.',
      cta: 'Что вы получите',
    },
    trendsCard: {
      title: 'Тренды сезона',
      body: 'Пастельные тона, объёмная подошва, ретро-кроссовки и минималистичные лоферы — подбирайте стиль съёмки под то, что ищут покупатели.',
    },
    commentsTitle: 'Что говорят продавцы',
    comments: {
      c1: {
        text: 'Раньше съёмка одной модели занимала день. Теперь снимаю шесть ракурсов на кухне и за вечер обновляю весь каталог.',
        author: 'Анна, магазин детской обуви, Казань',
      },
      c2: {
        text: 'Карточки сразу в нужном формате для Ozon и Wildberries — больше не подгоняю фото вручную.',
        author: 'Тимур, кроссовки и кеды, Алматы',
      },
      c3: {
        text: 'Видео для рекламы получаются живыми, а покупатели чаще досматривают карточку до конца.',
        author: 'Ольга, женская обувь, Минск',
      },
    },
  },
  shoes: {
    title: 'SoleStudio для продавцов обуви',
    lead: 'Вы снимаете пару на телефон по подсказкам, SoleStudio делает из этих снимков готовый маркетинговый контент.',
    stepsTitle: 'Как это работает',
    steps: {
      s1: 'Поставьте обувь на светлый однотонный фон при ровном освещении.',
      s2: 'Сделайте шесть снимков по подсказкам: три сбоку, спереди, сзади и подошва.',
      s3: 'Выберите стили — получите результат в истории задач и на почте.',
    },
    outputsTitle: 'Что вы получите',
    outputs: {
      product: {
        title: 'Студийные кадры товара',
        body: 'Каждый ракурс на белом или мягком студийном фоне с тенью, 3:4 для Wildberries и Ozon, 1:1 для Amazon.',
      },
      multi: {
        title: 'Мультиракурсная карточка',
        body: 'Все ракурсы пары на одной карточке — покупатель видит модель целиком.',
      },
      poster: {
        title: 'Постер',
        body: 'Герой-кадр, типографика и фон в цветах вашей пары для рекламы и соцсетей.',
      },
      color: {
        title: 'Цветовая карточка',
        body: 'Основные цвета модели с названиями и HEX-кодами и подобранная палитра образа.',
      },
      stillLife: {
        title: 'Натюрморт',
        body: 'Раскладка-флэтлей с обувью в центре композиции.',
      },
      model: {
        title: 'Фото на модели',
        body: 'Обувь на человеке в полный рост или по пояс, на фоне сцены или однотонном.',
      },
      video: {
        title: 'Креативное видео',
        body: 'Ролик 6–8 секунд 1080×1920 из ваших ракурсов с выбранной темой: кристаллы, жидкий металл, песок, горы и другие.',
      },
    },
    sampleLabel: 'Пример: {{name}}',
  },
  contact: {
    title: 'Связаться с нами',
    lead: 'Мы отвечаем продавцам в будние дни с 9:00 до 18:00 по московскому времени.',
    emailLabel: 'Электронная почта',
    feedbackLabel: 'Предложения и сообщения об ошибках',
    feedbackLink: 'Написать в форму обратной связи',
    responseTime: 'Обычно отвечаем в течение одного рабочего дня.',
  },
  routes: {
    landing: 'Главная',
    shoes: 'Для продавцов обуви',
    verify_email: 'Подтверждение почты',
    contact_us: 'Связаться с нами',
    feedback: 'Обратная связь',
    home: 'Рабочее пространство',
    task: 'Новая задача',
    task_retry: 'Повтор задачи',
    task_history: 'История задач',
    material: 'Мои материалы',
    image_edit: 'Редактор изображения',
    editor: 'Редактор',
    subscription: 'Тарифы',
    upgrade: 'Повышение тарифа',
    recharge: 'Пополнение баланса',
    recharge_result: 'Результат пополнения',
    recharge_success: 'Пополнение выполнено',
    recharge_cancel: 'Пополнение отменено',
    consumption_history: 'История расходов',
    local_subscription: 'Оформление подписки',
    subscription_manage: 'Управление подпиской',
    subscription_result: 'Результат оформления подписки',
    subscription_success: 'Подписка оформлена',
    subscription_cancel: 'Оформление подписки отменено',
    not_found: 'Страница не найдена',
  },
  comingSoon: {
    title: 'Скоро здесь',
    body: 'Раздел «{{name}}» появится в ближайшем обновлении. Остальные разделы уже работают.',
    back: 'На главную',
  },
  notFound: {
    title: 'Такой страницы нет',
    body: 'Возможно, ссылка устарела или в адресе опечатка.',
    back: 'На главную',
  },
  update: {
    title: 'Доступна новая версия {{version}}',
    whatsNew: 'Что нового',
    now: 'Обновить',
    later: 'Позже',
    updating: 'Обновляем…',
    forced: 'Чтобы продолжить работу, установите обновление.',
  },
  network: {
    offline: 'Нет сети. Показаны сохранённые страницы.',
  },
  common: {
    errors: {
      internal_server_error: 'Внутренняя ошибка сервера. Пожалуйста, обратитесь в поддержку.',
      website_error: 'Что-то пошло не так. Обновите страницу и попробуйте ещё раз.',
      network: 'Нет соединения с сервером. Проверьте сеть и попробуйте ещё раз.',
      timeout: 'Сервер не ответил вовремя. Попробуйте ещё раз.',
    },
  },
};

export default ru;
/** Every key: the core texts above and those loaded with the account screens. */
export type Translation = typeof ru & typeof ruAccount;

/** The same shape as the Russian file, every leaf a string. */
export type TranslationShape<T = Translation> = {
  [K in keyof T]: T[K] extends string ? string : TranslationShape<T[K]>;
};
