// Keys the code builds at run time, each pattern as the code writes it ('task.views.*' for
// `task.views.${view}`) with every value its variable can take. A pattern in the code that is not
// declared here fails the catalogue test, and so does a declared one the code no longer has.
import { LOCALES } from '../../../contract/locales';
import { BACKGROUNDS, CATEGORIES, CONTENT_TYPES, CREATIVE_SCENES, FAILURE_TYPES, PRODUCT_PRESETS, SHOE_VIEWS } from '../../../contract/enums';
import { CHANNELS } from '../../../contract/auth';
import { MATERIAL_SECTIONS } from '../../../contract/assets';
import { EDIT_FONTS, TEXT_ALIGNS } from '../../../contract/edit';
import { EDIT_RENDER_FAILURES } from '../../../contract/edit-render';
import { TOOLS } from '../../../src/features/editor/tools';
import { SHOE_PARAMS } from '../../../contract/materials';
import { ROUTES } from '../../../src/config/paths';
import { AMAZON_REGIONS, PLATFORMS, PLATFORM_FIELDS, PUBLICATION_ITEM_STATUSES, PUBLICATION_STATUSES } from '../../../contract/publisher';
import { COLOUR_NAMES } from '../../../server/studio/palette';
import { CLIENT_PROVIDERS, ID_TYPES, LEDGER_TYPES, PAYMENT_METHODS, PLAN_INTERVALS, SUBSCRIPTION_STATUSES } from '../../../contract/billing';

/** Keys named elsewhere by a short name: a server message by its bare key, a rule by rule('…'). */
export const NAMED_ELSEWHERE = { 'messages.*': 'messages', 'rules.*': 'rules' } as const;

const FINISHED = ['completed', 'partially_completed'] as const;
/** A task's status as the history shows it, a rejection told apart from other failures (TaskCard). */
const SHOWN_STATUSES = ['processing', ...FINISHED, 'failed', 'manual_rejection'];
/** What a seller is told by mail at each step of a subscription (server/billing/subscriptions/context.ts). */
const SUBSCRIPTION_MAILS = ['activated', 'renewed', 'payment_failed', 'unpaid', 'canceled', 'revoked', 'upgraded', 'refunded'];
const SAMPLE_KINDS = ['product', 'multi', 'poster', 'color', 'stillLife', 'model', 'video'];

export const DYNAMIC: Record<string, readonly string[]> = {
  // The page
  'language.names.*': LOCALES,
  'routes.*': Object.keys(ROUTES),
  'landing.comments.*.text': ['c1', 'c2', 'c3'],
  'landing.comments.*.author': ['c1', 'c2', 'c3'],
  'shoes.steps.*': ['s1', 's2', 's3'],
  'shoes.outputs.*.title': SAMPLE_KINDS,
  'shoes.outputs.*.body': SAMPLE_KINDS,
  'auth.register.channels.*': CHANNELS,
  'auth.forgot.*': ['sendFailed', 'verifyFailed', 'resetFailed'],
  'auth.forgot.steps.*': ['email', 'code', 'password'],
  'workspace.tiles.*.title': CONTENT_TYPES,
  'workspace.tiles.*.body': CONTENT_TYPES,
  'task.titles.*': CONTENT_TYPES,
  'task.views.*': SHOE_VIEWS,
  'task.params.*': SHOE_PARAMS,
  'task.slot.states.*': ['stored', 'queued', 'uploading', 'uploaded', 'failed'],
  'task.errors.*': ['params_invalid', 'prompt_invalid', 'background_type'],
  'task.categories.*.title': CATEGORIES,
  'task.categories.*.body': CATEGORIES,
  'task.backgrounds.*': BACKGROUNDS,
  'task.scenes.*': CREATIVE_SCENES,
  'task.presets.*': PRODUCT_PRESETS,
  'camera.errors.*': ['unsupported', 'insecure', 'denied', 'notFound', 'failed'],
  'history.tasks.status.*': SHOWN_STATUSES,
  'history.tasks.note.*': SHOWN_STATUSES,
  'history.material.*': ['edit_size_invalid', 'del_size_invalid', 'retry_size_invalid', 'download_size_invalid'],
  'history.material.sections.*': MATERIAL_SECTIONS,
  // Stores and publishing: each platform, the keys its form asks for, a publication's and a picture's states.
  'publisher.platforms.*': PLATFORMS,
  'publisher.fields.*': [...new Set(Object.values(PLATFORM_FIELDS).flatMap((fields) => fields.map((field) => field.name)))].filter((name) => name !== 'region'),
  'publisher.regions.*': AMAZON_REGIONS,
  'publisher.publications.status.*': PUBLICATION_STATUSES,
  'publisher.publications.item.*': PUBLICATION_ITEM_STATUSES,
  'publisher.publish.*': ['main', 'gallery', 'append', 'replace', 'tooSmall', 'noVideo', 'format'],
  'publisher.event.*': ['done', 'partial', 'failed'],
  // The image editor's tools, fonts, alignments and the reasons a logo is refused.
  'history.editor.tools.*': TOOLS,
  'history.editor.text.fonts.*': EDIT_FONTS,
  'history.editor.text.aligns.*': TEXT_ALIGNS,
  'history.editor.logo.*': ['svg', 'not_image', 'too_big'],
  'history.editor.renderFailed.*': EDIT_RENDER_FAILURES,
  'recharge.methods.*': PAYMENT_METHODS,
  // A failed or cancelled payment's text (RechargeResultPage).
  'recharge.alerts.*': ['cancelled', 'expired', 'invalidStatus'],
  'consumption.types.*': LEDGER_TYPES,
  'subscription.per.*': PLAN_INTERVALS,
  'subscription.checkout.steps.*': ['init', 'authorise', 'done'],
  'subscription.checkout.idTypes.*': ID_TYPES,
  // What the way back from a provider shows while it works, and how it ends (SubscriptionResultPage).
  'subscription.result.*': ['waiting', 'subscribing', 'checking'],
  'subscription.alerts.*': ['authorizationIncomplete', 'alreadySubscribed', 'invalidStatus', 'cancelled', 'otherError', 'statusFailed'],
  'subscription.manageView.statuses.*': SUBSCRIPTION_STATUSES,
  'subscription.manageView.providers.*': CLIENT_PROVIDERS,
  // The server
  'shoeCategories.*': ['sneakers', 'shoes', 'heels', 'sandals', 'ankle_boots', 'boots'],
  'mail.task.subject.*': [...FINISHED, 'failed'],
  'mail.task.body.*': [...FINISHED, ...FAILURE_TYPES],
  'mail.subscription.subject.*': SUBSCRIPTION_MAILS,
  'mail.subscription.body.*': SUBSCRIPTION_MAILS,
  'mail.publication.subject.*': ['done', 'partial', 'failed'],
  'mail.publication.body.*': ['done', 'partial', 'failed'],
  'studio.views.*': SHOE_VIEWS,
  'studio.params.*': ['boot_height', 'heel_height', 'boot_circumference', 'ankle_circumference'],
  'studio.colours.*': COLOUR_NAMES,
};
