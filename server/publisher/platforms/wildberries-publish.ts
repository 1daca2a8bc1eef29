// Putting results on a Wildberries card. The pictures go by upload (/content/v3/media/file), so
// this server needs no public address: each to a photo number fixed before it is first sent, so
// sending it again (an answer lost, the job run twice) replaces itself instead of adding a copy.
// Wildberries applies media later and answers 200 even when it applies nothing, so the card is
// read back until the pictures are on it. The order is then made what the seller asked for (the
// main picture first, or the others kept or dropped) with /content/v3/media/save, which replaces
// all of the card's media with the list it is given: the card's own addresses, the video with them.
// A video goes first, to number 1, and is confirmed alone by the card changing (its address stays
// the same when it replaces another). A replace on a full card first makes room for ours.
import { MEDIA_RULES } from '../../../contract/publisher';
import { answerText, patiently } from './store';
import { wildberriesCall, wildberriesFetch, wildberriesRefusal } from './wildberries';

export interface CardMediaNow {
  photos: string[];
  video: string | null;
  /** When the card last changed: its addresses go by position, so a new order shows only here. */
  updatedAt: string;
}

/** An item of a publication as the platform step sees it. */
export interface SendItem {
  position: number;
  kind: 'image' | 'video';
  status: 'pending' | 'sent';
  slot: number | null;
  bytes(): Promise<Buffer | null>;
}

export interface SendContext {
  base: string;
  token: string;
  nmId: number;
  placement: 'main' | 'gallery';
  mode: 'append' | 'replace';
  /** Records what happened to an item (its slot before it is sent; sent; applied or failed). */
  record(position: number, fields: { status?: 'sent' | 'applied' | 'failed'; slot?: number; message?: string | null; remoteUrl?: string | null }): Promise<void>;
  wait(ms: number): Promise<void>;
  /** How often the card is read back, and for how long, before the job is tried again later. */
  pollMs: number;
  applyWithinMs: number;
}

/** Thrown when the card does not show the media yet: the job is tried again later. */
export class NotAppliedYet extends Error {
  constructor(what: string) {
    super(`Wildberries has not applied ${what} yet`);
    this.name = 'NotAppliedYet';
  }
}

interface ListedCard {
  nmID: number;
  photos?: { big?: string }[];
  video?: string;
  updatedAt: string;
}

/** The card's media now; null when the seller has no such card. */
export async function cardMedia(base: string, token: string, nmId: number): Promise<CardMediaNow | null> {
  const answer = await wildberriesCall(base, token, '/content/v2/get/cards/list', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { cursor: { limit: 100 }, filter: { withPhoto: -1, textSearch: String(nmId) } } }),
  });
  const card = (((await answer.json()) as { cards?: ListedCard[] }).cards ?? []).find((c) => c.nmID === nmId);
  if (!card) return null;
  return { photos: (card.photos ?? []).map((photo) => photo.big ?? '').filter(Boolean), video: card.video ?? null, updatedAt: card.updatedAt };
}

/** Uploads one file to its number; a refusal of the file itself is the item's, anything else the job's. */
async function upload(context: SendContext, bytes: Buffer, number: number): Promise<string | null> {
  const form = new FormData();
  form.append('uploadfile', new Blob([new Uint8Array(bytes)]), 'result');
  const answer = await wildberriesFetch(context.base, context.token, '/content/v3/media/file', {
    method: 'POST',
    headers: { 'X-Nm-Id': String(context.nmId), 'X-Photo-Number': String(number) },
    body: form,
  });
  if (answer.ok) return null;
  if (answer.status === 400 || answer.status === 422) {
    const body = (await answer.json().catch(() => null)) as { errorText?: string } | null;
    return body?.errorText || (await answerText(answer));
  }
  // Not the file's fault: the key, the platform's limits or its health, as every other call.
  throw await wildberriesRefusal(answer);
}

/** Makes the card's media exactly these (WB's media/save replaces them all), the video with them. */
function save(context: SendContext, photos: string[], video: string | null) {
  return patiently(context.wait, () =>
    wildberriesCall(context.base, context.token, '/content/v3/media/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nmId: context.nmId, data: [...photos, ...(video ? [video] : [])] }),
    }),
  );
}

/** Reads the card back until `ready` holds, within the context's window. */
async function until(context: SendContext, ready: (media: CardMediaNow) => boolean, what: string): Promise<CardMediaNow> {
  const deadline = Date.now() + context.applyWithinMs;
  for (;;) {
    const media = await patiently(context.wait, () => cardMedia(context.base, context.token, context.nmId));
    if (!media) throw new NotAppliedYet(`${what} (the card is gone)`);
    if (ready(media)) return media;
    if (Date.now() >= deadline) throw new NotAppliedYet(what);
    await context.wait(context.pollMs);
  }
}

/** Sends one file to its number: a refusal of the file is recorded as the item's; true once sent. */
async function send(context: SendContext, item: SendItem): Promise<boolean> {
  const bytes = await item.bytes();
  if (!bytes) {
    await context.record(item.position, { status: 'failed', message: 'PUBLISH_ASSET_GONE' });
    return false;
  }
  const refused = await patiently(context.wait, () => upload(context, bytes, item.slot!));
  if (refused) {
    await context.record(item.position, { status: 'failed', message: refused });
    return false;
  }
  await context.record(item.position, { status: 'sent' });
  return true;
}

/**
 * Sends the items still to send and confirms them on the card. Answers false when the card does
 * not exist (the caller fails the items); throws to be tried again later.
 */
export async function publishToWildberries(context: SendContext, items: SendItem[]): Promise<boolean> {
  let start = await patiently(context.wait, () => cardMedia(context.base, context.token, context.nmId));
  if (!start) return false;
  const images = items.filter((item) => item.kind === 'image').sort((a, b) => a.position - b.position);
  const placed = images.map((item) => item.slot).filter((slot): slot is number => slot !== null);
  // Replacing: a card holds at most 30 pictures, so the card's own make room for ours first —
  // those dropped are ones the replace removes anyway.
  const room = MEDIA_RULES.wildberries.maxImages - images.length;
  if (context.mode === 'replace' && placed.length === 0 && start.photos.length > room) {
    const before = start;
    await save(context, before.photos.slice(0, room), before.video);
    start = await until(context, (media) => media.photos.length === room && media.updatedAt !== before.updatedAt, 'room for the pictures');
  }
  // Numbers after the card's pictures, fixed once: the first run's count is where ours begin.
  let next = placed.length > 0 ? Math.max(...placed) + 1 : start.photos.length + 1;
  for (const item of images) {
    if (item.slot === null) {
      item.slot = next;
      next += 1;
      await context.record(item.position, { slot: item.slot });
    }
  }

  // The video first, and confirmed alone: a card's video keeps its address when it is replaced,
  // so only the card changing after the upload shows ours is there. A second run sends it again
  // (it replaces itself), as it cannot be told from the video it replaced.
  const video = items.find((item) => item.kind === 'video');
  let film: SendItem | null = null;
  if (video) {
    if (video.slot === null) {
      video.slot = 1;
      await context.record(video.position, { slot: 1 });
    }
    if (await send(context, video)) {
      const before = start;
      start = await until(context, (media) => media.video !== null && media.updatedAt !== before.updatedAt, 'the uploaded video');
      film = video;
    }
  }

  const sent: SendItem[] = [];
  for (const item of images) {
    // Sent before and on the card already: not sent again.
    if (item.status === 'sent' && start.photos.length >= item.slot!) sent.push(item);
    else if (await send(context, item)) sent.push(item);
  }
  if (sent.length === 0) {
    if (film) await context.record(film.position, { status: 'applied', remoteUrl: start.video });
    return true;
  }

  const ours = [...sent].sort((a, b) => a.slot! - b.slot!);
  const lastSlot = ours.at(-1)!.slot!;
  const uploaded = await until(context, (media) => media.photos.length >= lastSlot, 'the uploaded files');

  // What the seller asked for: theirs alone, theirs first, or theirs after the others.
  const slots = new Set(ours.map((item) => item.slot! - 1));
  const theirs = ours.map((item) => uploaded.photos[item.slot! - 1]!);
  const others = uploaded.photos.filter((_, index) => !slots.has(index));
  const desired = context.mode === 'replace' ? theirs : context.placement === 'main' ? [...theirs, ...others] : [...others, ...theirs];
  let final = uploaded;
  if (desired.join('\n') !== uploaded.photos.join('\n')) {
    await save(context, desired, uploaded.video);
    final = await until(context, (media) => media.photos.length === desired.length && media.updatedAt !== uploaded.updatedAt, 'the new order');
  }
  const firstOfOurs = context.mode === 'replace' || context.placement === 'main' ? 0 : others.length;
  for (const [index, item] of ours.entries()) await context.record(item.position, { status: 'applied', remoteUrl: final.photos[firstOfOurs + index] ?? null });
  if (film) await context.record(film.position, { status: 'applied', remoteUrl: final.video });
  return true;
}
