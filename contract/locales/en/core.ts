import type { Translated } from '../shape';
import type ru from '../ru/core';

const core: Translated<typeof ru, 'en'> = {
  app: {
    name: 'SoleStudio',
    tagline: 'Marketing photos and videos for shoe sellers',
  },
  a11y: {
    skipToContent: 'Skip to content',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    home: 'SoleStudio home',
  },
  theme: {
    toLight: 'Switch to light theme',
    toDark: 'Switch to dark theme',
  },
  language: {
    label: 'Language',
    names: { ru: 'Русский', en: 'English', zh: '中文' },
  },
  nav: {
    login: 'Sign in',
    register: 'Sign up',
    home: 'Workspace',
    taskHistory: 'Task history',
    materialHistory: 'My materials',
    stores: 'Stores',
    subscriptionManage: 'Manage subscription',
    consumptionHistory: 'Token history',
    feedback: 'Feedback',
    changePassword: 'Change password',
    contactUs: 'Contact us',
    logout: 'Sign out',
    account: 'Account',
  },
  footer: {
    terms: 'Terms of use',
    privacy: 'Privacy policy',
    contact: 'Contact',
    rights: '© {{year}} SoleStudio',
  },
  landing: {
    title: 'Photos and videos that sell shoes',
    lead: 'Photograph a pair from six angles on your phone — even with no signal — and get studio shots, posters, colour cards, model photos and short videos for marketplaces.',
    users: 'More than 50,000 sellers',
    usersNote: 'already create content with SoleStudio',
    start: 'Get started',
    signedOut: {
      passwordChanged: 'You were signed out: the password was changed on another device.',
      dismiss: 'Got it',
    },
    shoesCard: {
      title: 'For shoe sellers',
      body: 'Six angles in, listing-ready images for Wildberries, Ozon and Amazon out.',
      cta: 'What you get',
    },
    trendsCard: {
      title: 'Trends of the season',
      body: 'Pastel tones, chunky soles, retro sneakers and minimalist loafers — match your shoot style to what buyers are looking for.',
    },
    commentsTitle: 'What sellers say',
    comments: {
      c1: {
        text: 'A shoot for one model used to take a day. Now I take six angles in my kitchen and refresh the whole catalogue in an evening.',
        author: 'Anna, children’s shoe shop, Kazan',
      },
      c2: {
        text: 'Listings come out in the right format for Ozon and Wildberries — no more resizing photos by hand.',
        author: 'Timur, sneakers and trainers, Almaty',
      },
      c3: {
        text: 'The ad videos look alive, and buyers scroll through the listing to the end more often.',
        author: 'Olga, women’s shoes, Minsk',
      },
    },
  },
  shoes: {
    title: 'SoleStudio for shoe sellers',
    lead: 'You photograph a pair on your phone with guidance; SoleStudio turns those shots into finished marketing content.',
    stepsTitle: 'How it works',
    steps: {
      s1: 'Put the shoe on a plain light background in even light.',
      s2: 'Take six guided shots: three from the side, front, back and sole.',
      s3: 'Pick styles — results arrive in your task history and by e-mail.',
    },
    outputsTitle: 'What you get',
    outputs: {
      product: {
        title: 'Studio product shots',
        body: 'Every angle on a white or soft studio background with a shadow, 3:4 for Wildberries and Ozon, 1:1 for Amazon.',
      },
      multi: {
        title: 'Multi-angle card',
        body: 'All angles of the pair on one card, so buyers see the whole model.',
      },
      poster: {
        title: 'Poster',
        body: 'A hero shot, typography and a background in your pair’s colours for ads and social media.',
      },
      color: {
        title: 'Colour card',
        body: 'The model’s main colours with names and hex codes, and a matching outfit palette.',
      },
      stillLife: {
        title: 'Still life',
        body: 'A flat-lay composition with the shoe at its centre.',
      },
      model: {
        title: 'Model photos',
        body: 'The shoe worn by a person, full body or half body, in a scene or on a plain background.',
      },
      video: {
        title: 'Creative video',
        body: 'A 6–8 second 1080×1920 clip made from your angles in a theme you choose: crystal, liquid metal, sand, mountains and more.',
      },
    },
    sampleLabel: 'Example: {{name}}',
  },
  contact: {
    title: 'Contact us',
    lead: 'We answer sellers on weekdays from 9:00 to 18:00 Moscow time.',
    emailLabel: 'E-mail',
    feedbackLabel: 'Suggestions and bug reports',
    feedbackLink: 'Write to us through the feedback form',
    responseTime: 'We usually reply within one working day.',
  },
  routes: {
    landing: 'Home',
    shoes: 'For shoe sellers',
    verify_email: 'E-mail verification',
    contact_us: 'Contact us',
    feedback: 'Feedback',
    home: 'Workspace',
    task: 'New task',
    task_retry: 'Retry task',
    task_history: 'Task history',
    material: 'My materials',
    stores: 'Stores',
    image_edit: 'Image editor',
    editor: 'Editor',
    subscription: 'Plans',
    upgrade: 'Upgrade plan',
    recharge: 'Top up',
    recharge_result: 'Top-up result',
    recharge_success: 'Top-up complete',
    recharge_cancel: 'Top-up cancelled',
    consumption_history: 'Token history',
    local_subscription: 'Subscription checkout',
    subscription_manage: 'Manage subscription',
    subscription_result: 'Subscription result',
    subscription_success: 'Subscription active',
    subscription_cancel: 'Subscription cancelled',
    not_found: 'Page not found',
  },
  comingSoon: {
    title: 'Coming soon',
    body: '“{{name}}” arrives in an upcoming update. Everything else already works.',
    back: 'Go home',
  },
  notFound: {
    title: 'There is no such page',
    body: 'The link may be out of date, or the address may have a typo.',
    back: 'Go home',
  },
  update: {
    title: 'Version {{version}} is available',
    whatsNew: 'What’s new',
    now: 'Update',
    later: 'Later',
    updating: 'Updating…',
    forced: 'Install the update to keep working.',
  },
  payments: {
    testBanner: 'Test payments: payments on this server are a sandbox — no money moves, and nothing bought here is real.',
  },
  network: {
    offline: 'You are offline. Saved pages are shown.',
  },
  common: {
    errors: {
      internal_server_error: 'Internal server error. Please contact support.',
      website_error: 'Something went wrong. Reload the page and try again.',
      network: 'Cannot reach the server. Check your connection and try again.',
      timeout: 'The server did not answer in time. Please try again.',
    },
  },
};

export default core;
