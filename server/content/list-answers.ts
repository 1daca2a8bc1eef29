// Answers of the history lists (GET /content/tasks, GET /content/assets), the photos list, the
// consumption history and the balance, kept in memory by seller, list, page and language, each
// with the seller's content version it was made at. The version is kept by database triggers on
// every table an answer shows (migrations 0005, 0006, 0016), so one primary-key read tells
// whether a kept answer is still exactly what the database holds, on any API node. An answer read
// again unchanged (a refresh, a poll, the task-updated event on other devices) then costs that
// read instead of its queries and building the answer.
// Measured by `npm run bench -- history` (1,000 tasks / 5,000 results, 50 clients, PGlite, 2
// cores, 2026-11-23), with and without kept answers: GET /content/tasks 4,517 vs 102 req/s (p99
// 51 ms vs 6.4 s, 12 requests timed out); GET /content/assets 6,896 vs 347 req/s (p99 26 vs 576 ms).
import type { FastifyReply } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { localWriteCount, type Database } from '../db/client';
import { prepared } from '../db/prepared';
import { contentVersions } from '../db/schema';

/** Kept answers hold addresses signed for an hour (DOWNLOAD_URL_LIFETIME_S); they are used for 5 min. */
export const LIST_ANSWER_MAX_AGE_MS = 5 * 60_000;
const MAX_ANSWERS = 2000;

/** The seller's content version: changes whenever anything a history list shows changes. */
export async function contentVersion(db: Database, userId: string): Promise<number> {
  const query = prepared(db, 'content_version', (d) =>
    d.select({ version: contentVersions.version }).from(contentVersions).where(eq(contentVersions.userId, sql.placeholder('user'))).prepare('content_version'),
  );
  const [row] = await query.execute({ user: userId });
  return row?.version ?? 0;
}

interface Kept {
  version: number;
  body: string;
  at: number;
}

export class ListAnswers {
  private readonly kept = new Map<string, Kept>();
  /** Answers being made, by key and version: requests that miss at once wait for the one. */
  private readonly making = new Map<string, Promise<string>>();

  constructor(
    private readonly maxAgeMs = LIST_ANSWER_MAX_AGE_MS,
    private readonly max = MAX_ANSWERS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer for `key`, if it was made at `version` and is fresh enough. */
  get(key: string, version: number): string | null {
    const kept = this.kept.get(key);
    if (!kept) return null;
    if (kept.version !== version || this.now() - kept.at > this.maxAgeMs) {
      this.kept.delete(key);
      return null;
    }
    // Most recently used last: the oldest are dropped first when full.
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept.body;
  }

  set(key: string, version: number, body: string): void {
    this.kept.delete(key);
    this.kept.set(key, { version, body, at: this.now() });
    while (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
  }

  get size(): number {
    return this.kept.size;
  }

  /**
   * `build`'s answer for `key` at `version`, kept; while one is being made, a request for the
   * same key and version waits for it rather than making it again (fifty clients opening a page
   * nobody has asked for since it changed make it once).
   */
  async make(key: string, version: number, build: () => Promise<string>): Promise<string> {
    const id = `${version}|${key}`;
    const making = this.making.get(id);
    if (making) return making;
    const made = build()
      .then((body) => {
        this.set(key, version, body);
        return body;
      })
      .finally(() => this.making.delete(id));
    this.making.set(id, made);
    return made;
  }
}

const answersByDatabase = new WeakMap<Database, ListAnswers>();

/** On the embedded database: each seller's version as last read, and the write count before it. */
const versionsByDatabase = new WeakMap<Database, Map<string, { version: number; writes: number }>>();
const MAX_VERSIONS = 10_000;

/**
 * The seller's content version. On the embedded database it is read again only when something
 * has been written since it was last read (counted before reading, so a write that lands during
 * the read is never missed); on PostgreSQL, always.
 */
async function currentVersion(db: Database, userId: string): Promise<number> {
  const writes = localWriteCount(db);
  if (writes === null) return contentVersion(db, userId);
  let versions = versionsByDatabase.get(db);
  if (!versions) {
    versions = new Map();
    versionsByDatabase.set(db, versions);
  }
  const known = versions.get(userId);
  if (known && known.writes === writes) return known.version;
  const version = await contentVersion(db, userId);
  if (versions.size >= MAX_VERSIONS) versions.clear();
  versions.set(userId, { version, writes });
  return version;
}

/** The kept answers of one database's lists (several apps on one database share them). */
export function listAnswersOf(db: Database): ListAnswers {
  let answers = answersByDatabase.get(db);
  if (!answers) {
    answers = new ListAnswers();
    answersByDatabase.set(db, answers);
  }
  return answers;
}

/**
 * The list answer for this seller and key: the kept one when nothing it shows has changed since,
 * else `build`'s, kept. The version is read before building, so an answer is never kept under a
 * version newer than what it shows.
 */
export async function listAnswer(
  db: Database,
  userId: string,
  key: string,
  /** The answer, serialised: checked against the route's schema once, when it is made. */
  build: () => Promise<string>,
  /** The version when this request has already read it (with its session). */
  knownVersion: number | null = null,
): Promise<string> {
  const answers = listAnswersOf(db);
  const version = knownVersion ?? (await currentVersion(db, userId));
  const full = `${userId}|${key}`;
  return answers.get(full, version) ?? answers.make(full, version, build);
}

/**
 * A list answer through its route's own 200 serializer, which refuses one off the route's schema
 * (ResponseSerializationError), and sending the JSON it made as it is. The route's types know only
 * objects, so the kept text is sent past them here, once.
 */
export const serialisedAnswer = (reply: FastifyReply, answer: { [key: string]: unknown }) => reply.serializeInput(answer, '200') as string;
export const sendSerialised = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);
