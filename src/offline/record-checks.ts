// What a record of each table of the app's database must be (db.ts; its shapes are records.ts),
// checked when it is read: a record written by an older build, a newer one or damaged is repaired
// where a safe value exists (a missing field, an older shape), and anything else is reported as
// unusable. Written with zod/mini (no eval, so the service worker may check too) on the
// contract's vocabulary.
//
// A new shape that an older build would take for damage (and repair away) comes with a new
// database version in db.ts: that closes an older tab's connection for good.
import * as z from 'zod/mini';
import type { EditDescription } from '../../contract/edit';
import { BACKGROUNDS, CATEGORIES, CONTENT_MODULES, CONTENT_TYPES, CREATIVE_SCENES, PRODUCT_PRESETS, SHOE_VIEWS, type ShoeView } from '../../contract/enums';
import type { Selection } from '../../contract/selection';
import type { DraftKey, DraftRecord, EditDraftRecord, EditKey, ListRecord, OutboxJob, PhotoRecord, SessionRecord, SlotRecord } from './records';

/** The fields repaired while one record is checked (parsing is synchronous, one record at a time). */
let repairs: string[] = [];

/** `schema`, or what `fallback` makes (noted as a repair of `field`) when the stored value is missing or wrong. */
function or<T extends z.ZodMiniType>(field: string, schema: T, fallback: () => z.output<T>) {
  return z.catch(schema, () => {
    repairs.push(field);
    return fallback();
  });
}

const id = z.string().check(z.minLength(1));
const time = z.number();
const count = z.number().check(z.gte(0));
const view = z.enum(SHOE_VIEWS);
const contentType = z.enum(CONTENT_TYPES);
const isDraftKey = (key: unknown): key is DraftKey =>
  typeof key === 'string' && (CONTENT_TYPES.some((type) => type === key) || /^(retry|edit):./.test(key));
const draftKey = z.custom<DraftKey>(isDraftKey);
const isView = (key: string): key is ShoeView => SHOE_VIEWS.some((v) => v === key);
/** An optional text field: dropped when it is not text. */
const note = (field: string) => or(field, z.optional(z.string()), () => undefined);

const session: z.ZodMiniType<SessionRecord> = z.looseObject({
  id: z.literal('current'),
  token: id,
  userId: id,
  locale: note('locale'),
  updatedAt: or('updatedAt', time, () => 0),
});

function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return value instanceof ArrayBuffer || Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/** A photo's bytes as an ArrayBuffer (a typed array is copied into one); empty bytes are no photo. */
const bytes = z.pipe(
  z.custom<ArrayBuffer | ArrayBufferView>((value) => isArrayBuffer(value) || ArrayBuffer.isView(value)),
  z.transform((value) => {
    if (isArrayBuffer(value)) return value;
    repairs.push('bytes');
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice().buffer;
  }),
).check(z.refine((value) => value.byteLength > 0, 'no bytes'));

/** A PNG starts with 0x89 "PNG"; anything else the app stores is a JPEG. */
function mimeOf(data: unknown): PhotoRecord['mime'] {
  const head = isArrayBuffer(data) ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array();
  return head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47 ? 'image/png' : 'image/jpeg';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A photo is kept whatever else is wrong with it as long as its bytes are there: its type is read
 * from the bytes, and its size, draft and view (the draft's slot is their truth) are let go.
 */
const photo: z.ZodMiniType<PhotoRecord> = z.pipe(
  z.transform((stored: unknown) => {
    if (!isObject(stored) || stored.mime === 'image/jpeg' || stored.mime === 'image/png') return stored;
    repairs.push('mime');
    return { ...stored, mime: mimeOf(stored.bytes) };
  }),
  z.looseObject({
    id,
    draftKey: or('draftKey', z.optional(draftKey), () => undefined),
    view: or('view', z.optional(view), () => undefined),
    mime: z.enum(['image/jpeg', 'image/png']),
    bytes,
    width: or('width', count, () => 0),
    height: or('height', count, () => 0),
    createdAt: or('createdAt', time, () => 0),
  }),
);

const slot: z.ZodMiniType<SlotRecord> = z.looseObject({
  photoId: id,
  state: or('slot state', z.enum(['stored', 'queued', 'uploading', 'uploaded', 'failed']), () => 'stored' as const),
  materialId: note('slot materialId'),
  jobId: note('slot jobId'),
  error: note('slot error'),
  warnings: or('slot warnings', z.optional(z.array(z.string())), () => undefined),
});

/** A draft's slots: one under a view this build does not know, or without a photo, is let go alone. */
const slots = z.pipe(
  or('slots', z.record(z.string(), z.unknown()), () => ({})),
  z.transform((stored) => {
    const kept: DraftRecord['slots'] = {};
    for (const [key, value] of Object.entries(stored)) {
      const checked = z.safeParse(slot, value);
      if (isView(key) && checked.success) kept[key] = checked.data;
      else repairs.push(`slots.${key}`);
    }
    return kept;
  }),
);

const measure = (field: string) => or(`shoeParams.${field}`, z.optional(z.number()), () => undefined);
const shoeParams = or(
  'shoeParams',
  z.looseObject({ shaftHeight: measure('shaftHeight'), heelHeight: measure('heelHeight'), shaftLatitude: measure('shaftLatitude'), ankleLatitude: measure('ankleLatitude') }),
  () => ({}),
);

/** Page 2's choices; ones that make no sense any more are forgotten (the seller picks again). */
const selection: z.ZodMiniType<Selection> = z.looseObject({
  categories: z.partialRecord(z.enum(CATEGORIES), z.array(z.enum([...BACKGROUNDS, ...CREATIVE_SCENES, ...PRODUCT_PRESETS]))),
  custom: or('styles.custom', z.boolean(), () => false),
  prompt: or('styles.prompt', z.string(), () => ''),
});

const kept = z.array(z.looseObject({ view, materialId: id, url: z.nullable(z.string()) }));

const retryOf = z.looseObject({
  taskId: id,
  contentType,
  contentConfig: or('retry.contentConfig', z.array(z.unknown()), () => []),
  kept: or('retry.kept', kept, () => []),
  total: or('retry.total', count, () => 0),
  outputs: or('retry.outputs', count, () => 0),
});

/** A retry's draft is nothing without what it retries; any other draft loses a broken retry. */
const draft: z.ZodMiniType<DraftRecord> = z
  .looseObject({
    contentType: draftKey,
    page: or('page', z.union([z.literal(1), z.literal(2)]), () => 1 as const),
    slots,
    shoeParams,
    styles: or('styles', z.nullable(selection), () => null),
    retry: or('retry', z.optional(retryOf), () => undefined),
    updatedAt: or('updatedAt', time, () => 0),
  })
  .check(z.refine((record) => !record.contentType.startsWith('retry:') || record.retry !== undefined, 'a retry draft without its task'));

/** What every job has; a job in no known state is queued again (its key keeps a replay harmless). */
const job = {
  id,
  draftKey,
  state: or('state', z.enum(['queued', 'running', 'done', 'failed']), () => 'queued' as const),
  attempts: or('attempts', count, () => 0),
  nextAttemptAt: or('nextAttemptAt', time, () => 0),
  leaseUntil: or('leaseUntil', z.optional(time), () => undefined),
  error: note('error'),
  errorStatus: or('errorStatus', z.optional(z.number()), () => undefined),
  createdAt: or('createdAt', time, () => 0),
  updatedAt: or('updatedAt', time, () => 0),
};

/**
 * An edit description as stored: its shape is checked here, its rules (contract/edit.ts) where it
 * is used, so a description an older build wrote is never thrown away for a rule that changed.
 */
const editDescription = z.custom<EditDescription>(
  (value) =>
    isObject(value) && value.version === 1 && isObject(value.source) && isObject(value.crop) && Array.isArray(value.layers),
  'not an edit description',
);

const placement = z.looseObject({
  taskId: or('placement.taskId', z.nullable(z.string()), () => null),
  category: z.enum(CATEGORIES),
  background: or('placement.background', z.nullable(z.enum(BACKGROUNDS)), () => null),
  contentModule: z.enum(CONTENT_MODULES),
});

const editFile = z.looseObject({
  role: z.enum(['source', 'logo', 'picture']),
  photoId: id,
  localKey: id,
  materialId: note('file materialId'),
  uploadUrl: note('file uploadUrl'),
  fileKey: note('file fileKey'),
  publicUrl: note('file publicUrl'),
  uploaded: or('file uploaded', z.optional(z.boolean()), () => undefined),
});

const editJob = z.looseObject({
  ...job,
  kind: z.literal('edit'),
  materialId: z.nullable(id),
  materialUrl: or('materialUrl', z.nullable(z.string()), () => null),
  edit: editDescription,
  placement,
  files: z.array(editFile),
  sourceAssetId: note('sourceAssetId'),
  assetId: note('assetId'),
});

const editKey = z.custom<EditKey>((key) => key === 'device' || (typeof key === 'string' && /^asset:./.test(key)));

const edit: z.ZodMiniType<EditDraftRecord> = z.looseObject({
  key: editKey,
  source: z.looseObject({
    assetId: z.nullable(id),
    url: or('source.url', z.nullable(z.string()), () => null),
    photoId: id,
    width: z.number().check(z.gt(0)),
    height: z.number().check(z.gt(0)),
    placement,
  }),
  edit: editDescription,
  logos: or('logos', z.array(z.looseObject({ localKey: id, photoId: id })), () => []),
  updatedAt: or('updatedAt', time, () => 0),
});

const outbox: z.ZodMiniType<OutboxJob> = z.discriminatedUnion('kind', [
  z.looseObject({ ...job, kind: z.literal('upload'), view, photoId: id, materialId: note('materialId'), uploadUrl: note('uploadUrl') }),
  z.looseObject({
    ...job,
    kind: z.literal('generate'),
    task: z.looseObject({
      contentConfig: or('task → contentConfig', z.array(z.unknown()), () => []),
      photos: z.array(z.looseObject({ view, photoId: id, uploadJobId: id })),
      kept: or('task → kept', z.optional(z.array(z.looseObject({ view, materialId: id }))), () => undefined),
      total: or('task → total', count, () => 0),
      outputs: or('task → outputs', count, () => 0),
    }),
    draft,
    taskId: note('taskId'),
  }),
  z
    .looseObject({ ...job, kind: z.literal('delete'), materialId: z.optional(id), uploadKey: z.optional(id) })
    .check(z.refine((deletion) => deletion.materialId !== undefined || deletion.uploadKey !== undefined, 'a deletion names nothing')),
  editJob,
]);

const lists: z.ZodMiniType<ListRecord> = z.looseObject({
  key: id,
  userId: id,
  value: z.unknown(),
  savedAt: or('savedAt', time, () => 0),
});

const schemas = { session, photos: photo, drafts: draft, outbox, lists, edits: edit };

export type TableName = keyof typeof schemas;

export type Verdict =
  /** The record as the app may use it; `repaired` names what was put right (empty: nothing). */
  | { usable: true; value: unknown; repaired: string[] }
  | { usable: false; reason: string };

export function isCheckedTable(table: string): table is TableName {
  return Object.hasOwn(schemas, table);
}

/** Checks one stored record of a table. */
export function inspect(table: TableName, stored: unknown): Verdict {
  repairs = [];
  const checked = z.safeParse(schemas[table], stored);
  const repaired = repairs;
  repairs = [];
  if (checked.success) return { usable: true, value: checked.data, repaired };
  const reason = checked.error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ');
  return { usable: false, reason };
}
