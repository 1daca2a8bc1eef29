// What every API route answers: its success and each failure it can send (SPEC §7), by route.
// The server declares these as the routes' response schemas, so OpenAPI shows them and an answer
// off them is refused; the page can parse answers through the same schemas.
import { z } from 'zod';
import { errorResponses, okEnvelope, pagedEnvelope } from './envelope';
import { healthSchema } from './health';
import {
  balanceSchema,
  feedbackSchema,
  refreshedSessionSchema,
  registeredSchema,
  tokenSchema,
  userSchema,
  verifiedEmailSchema,
} from './auth';
import { materialSchema, shoeCategorySchema, storageUsageSchema, storedUploadSchema, uploadTicketSchema, verificationSchema } from './materials';
import {
  contentCatalogueSchema,
  eventTicketSchema,
  failureDetailSchema,
  generateResultSchema,
  taskMaterialSchema,
  taskSchema,
} from './content';
import { assetDownloadSchema, assetSchema } from './assets';
import { connectionSchema, platformSchema, publicationSchema, storeProductPageSchema } from './publisher';
import {
  checkoutSessionSchema,
  consumptionEntrySchema,
  customerResultSchema,
  mandateSchema,
  mySubscriptionSchema,
  paymentMethodSchema,
  paymentModeSchema,
  paymentSchema,
  planSchema,
  redirectSchema,
  subscriptionSchema,
  tiersSchema,
  topUpResultSchema,
} from './billing';

/** A request with a body can be malformed, larger than the route takes, or of a type it does not read. */
const BODY = [400, 413, 415] as const;
const done = okEnvelope(z.null());

/** A file's bytes as the server sends them, a buffer or a stream: never serialised, shown as binary. */
const fileBytes = z.custom<Uint8Array | AsyncIterable<Uint8Array>>().meta({ type: 'string', format: 'binary' });

/** A file under each of the content types it can have. */
function fileResponse(description: string, contentTypes: readonly string[]) {
  return { description, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: fileBytes }])) };
}

/** A stream of server-sent events: text, not one JSON body, so its format is told in words. */
function eventStreamResponse(description: string) {
  return { description, content: { 'text/event-stream': { schema: z.string().meta({ description }) } } };
}

export const healthResponses = {
  health: { 200: okEnvelope(healthSchema), ...errorResponses() },
};

export const authResponses = {
  register: { 201: okEnvelope(registeredSchema), ...errorResponses(...BODY, 409, 429) },
  login: { 200: okEnvelope(tokenSchema), ...errorResponses(...BODY, 401, 403, 429) },
  me: { 200: okEnvelope(userSchema), ...errorResponses(401) },
  logout: { 200: done, ...errorResponses(...BODY, 401) },
  refreshToken: { 200: okEnvelope(tokenSchema), ...errorResponses(...BODY, 401) },
  sessionRefresh: { 200: okEnvelope(refreshedSessionSchema), ...errorResponses(...BODY, 401) },
  forgotPasswordRequest: { 200: done, ...errorResponses(...BODY, 429) },
  forgotPasswordVerify: { 200: done, ...errorResponses(...BODY, 429) },
  forgotPasswordReset: { 200: done, ...errorResponses(...BODY, 429) },
  changePassword: { 200: done, ...errorResponses(...BODY, 401, 429) },
  verifyEmail: { 200: okEnvelope(verifiedEmailSchema), ...errorResponses(400) },
  resendVerification: { 200: done, ...errorResponses(...BODY, 429) },
};

export const feedbackResponses = {
  send: { 201: okEnvelope(feedbackSchema), ...errorResponses(...BODY, 429) },
};

export const tokenResponses = {
  balance: { 200: okEnvelope(balanceSchema), ...errorResponses(401) },
  tiers: { 200: okEnvelope(tiersSchema), ...errorResponses() },
  methods: { 200: okEnvelope(z.array(paymentMethodSchema)), ...errorResponses() },
  topUp: { 200: okEnvelope(topUpResultSchema), ...errorResponses(...BODY, 401, 429, 502, 503) },
  history: { 200: pagedEnvelope(consumptionEntrySchema), ...errorResponses(400, 401) },
};

export const subscriptionResponses = {
  plans: { 200: okEnvelope(z.array(planSchema)), ...errorResponses() },
  mine: { 200: mySubscriptionSchema, ...errorResponses(401) },
  create: { 200: okEnvelope(redirectSchema), ...errorResponses(...BODY, 401, 409, 429, 502, 503) },
  cancel: { 200: okEnvelope(subscriptionSchema), ...errorResponses(...BODY, 401, 404, 502, 503) },
  update: { 200: okEnvelope(subscriptionSchema), ...errorResponses(...BODY, 401, 402, 404, 409, 429, 502, 503) },
  checkoutSession: { 200: okEnvelope(checkoutSessionSchema), ...errorResponses(400, 401, 404) },
};

/** The local payment provider's customers, mandates and subscriptions (SPEC §7). */
export const localPayResponses = {
  customer: { 200: okEnvelope(customerResultSchema), ...errorResponses(...BODY, 401) },
  mandates: { 200: okEnvelope(z.array(mandateSchema)), ...errorResponses(400, 401) },
  createMandate: { 200: okEnvelope(mandateSchema), ...errorResponses(...BODY, 401, 429, 502, 503) },
  subscriptions: { 200: okEnvelope(z.array(subscriptionSchema)), ...errorResponses(400, 401) },
  subscribe: { 200: okEnvelope(subscriptionSchema), ...errorResponses(...BODY, 401, 404, 409, 429, 502, 503) },
  change: { 200: okEnvelope(subscriptionSchema), ...errorResponses(...BODY, 401, 402, 404, 409, 429, 502, 503) },
  cancel: { 200: okEnvelope(subscriptionSchema), ...errorResponses(...BODY, 401, 404) },
};

export const paymentResponses = {
  status: { 200: okEnvelope(paymentSchema), ...errorResponses(400, 401, 404) },
  webhook: { 200: okEnvelope(z.object({ changed: z.number().int() })), ...errorResponses(400, 403, 404, 413, 415, 429) },
  mode: { 200: okEnvelope(paymentModeSchema), ...errorResponses() },
};

export const materialResponses = {
  upload: { 200: okEnvelope(uploadTicketSchema), ...errorResponses(...BODY, 401, 409, 413, 429) },
  storage: { 200: okEnvelope(storageUsageSchema), ...errorResponses(401) },
  list: { 200: pagedEnvelope(materialSchema), ...errorResponses(400, 401) },
  delete: { 200: done, ...errorResponses(...BODY, 401, 404, 409) },
  shoeCategories: { 200: okEnvelope(z.array(shoeCategorySchema)), ...errorResponses() },
  verifyAngle: { 200: okEnvelope(verificationSchema), ...errorResponses(...BODY, 401, 404, 409, 422, 429) },
};

/** The embedded storage's signed addresses (absent when photos go to an S3 bucket). */
export const storageResponses = {
  put: { 200: okEnvelope(storedUploadSchema), ...errorResponses(...BODY, 403, 422) },
  get: {
    200: fileResponse('The stored file', ['image/jpeg', 'image/png', 'video/mp4', 'application/octet-stream']),
    ...errorResponses(403, 404),
  },
};

export const contentResponses = {
  config: { 200: okEnvelope(contentCatalogueSchema), ...errorResponses() },
  generate: { 200: okEnvelope(generateResultSchema), ...errorResponses(...BODY, 401, 402, 404, 409, 429) },
  tasks: { 200: pagedEnvelope(taskSchema), ...errorResponses(400, 401) },
  task: { 200: okEnvelope(taskSchema), ...errorResponses(400, 401, 404) },
  failureDetails: { 200: okEnvelope(z.array(failureDetailSchema)), ...errorResponses(400, 401, 404) },
  taskMaterials: { 200: okEnvelope(z.array(taskMaterialSchema)), ...errorResponses(400, 401, 404) },
  deleteTask: { 200: done, ...errorResponses(...BODY, 401, 404, 409) },
  regenerate: { 200: okEnvelope(generateResultSchema), ...errorResponses(...BODY, 401, 402, 404, 409, 429) },
  eventTicket: { 200: okEnvelope(eventTicketSchema), ...errorResponses(...BODY, 401) },
  events: {
    200: eventStreamResponse(
      'Server-sent events: `event: <type>` and `data: <TaskEvent JSON>` per task change, a `: keep-alive` comment every 25 s',
    ),
    ...errorResponses(400, 401),
  },
};

export const assetResponses = {
  list: { 200: pagedEnvelope(assetSchema), ...errorResponses(400, 401) },
  one: { 200: okEnvelope(assetSchema), ...errorResponses(400, 401, 404) },
  batchCreate: { 200: okEnvelope(z.array(assetSchema)), ...errorResponses(...BODY, 401, 404, 409, 413, 422, 429) },
  delete: { 200: done, ...errorResponses(...BODY, 401, 404) },
  requestDownload: { 200: okEnvelope(assetDownloadSchema), ...errorResponses(...BODY, 401, 404) },
  download: { 200: fileResponse('The results as one zip', ['application/zip']), ...errorResponses(400, 403, 404) },
};

export const publisherResponses = {
  platforms: { 200: okEnvelope(z.array(platformSchema)), ...errorResponses(401) },
  connect: { 201: okEnvelope(connectionSchema), ...errorResponses(...BODY, 401, 404, 422, 429, 502) },
  connections: { 200: okEnvelope(z.array(connectionSchema)), ...errorResponses(401) },
  disconnect: { 200: done, ...errorResponses(...BODY, 401, 404) },
  publish: { 200: okEnvelope(publicationSchema), 201: okEnvelope(publicationSchema), ...errorResponses(...BODY, 401, 404, 409, 429) },
  publication: { 200: okEnvelope(publicationSchema), ...errorResponses(400, 401, 404) },
  publications: { 200: pagedEnvelope(publicationSchema), ...errorResponses(400, 401) },
  products: { 200: okEnvelope(storeProductPageSchema), ...errorResponses(400, 401, 404, 409, 422, 429, 502) },
};
