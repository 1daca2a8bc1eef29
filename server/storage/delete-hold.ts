// While a backup copies DATA_DIR/files, no stored file is deleted: a backup takes the database
// first and the files after, so a file deleted in between (its row went first, after the database
// was taken) would be missing from a backup whose database still names it. The backup holds
// deletes with a file, DATA_DIR/backup.hold, which any process serving that directory sees (the
// server, and on PostgreSQL the workers beside it); a delete asked for meanwhile waits until the
// hold is gone and then runs. Files are only ever added under fresh keys, so holding the deletes
// is all a consistent copy needs.
//
// Why the order is safe: a delete removes the row (committed) before it asks for the file to go.
// A delete that saw no hold committed its row before the hold existed, so before the backup took
// the database, which then does not name the file. A delete that sees the hold waits.
//
// The backup refreshes the hold file's time while it runs; a hold older than STALE_AFTER_MS is a
// backup that died, and counts for nothing.
import fs from 'node:fs';
import path from 'node:path';

export const HOLD_FILE = 'backup.hold';
const STALE_AFTER_MS = 60_000;
const REFRESH_EVERY_MS = 10_000;
/** How often held deletes look again whether the hold is gone. */
const RECHECK_MS = 1_000;

export function holdFileOf(dataDir: string): string {
  return path.join(dataDir, HOLD_FILE);
}

/** Whether a live backup holds deletes in the directory of `file`. */
export function deletesHeld(file: string, now = Date.now()): boolean {
  try {
    return now - fs.statSync(file).mtimeMs < STALE_AFTER_MS;
  } catch {
    return false;
  }
}

export class BackupRunningError extends Error {
  constructor(file: string) {
    super(`Another backup of this DATA_DIR is running (${file} is fresh). Wait for it to finish, or delete that file if it is not.`);
    this.name = 'BackupRunningError';
  }
}

/** The backup's side: holds deletes until `release()`; refuses when another backup holds them. */
export function holdDeletes(dataDir: string): { release(): void } {
  const file = holdFileOf(dataDir);
  if (deletesHeld(file)) throw new BackupRunningError(file);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${process.pid}\n`);
  const refresh = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(file, now, now);
    } catch {
      // Removed under us: deletes run again, and the backup finds out when it checks its files.
    }
  }, REFRESH_EVERY_MS);
  refresh.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(refresh);
      fs.rmSync(file, { force: true });
    },
  };
}

/** The storage's side: deletes run now, or once the hold is gone. */
export class HeldDeletes {
  private readonly waiting = new Map<string, () => Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file: string) {}

  /** Runs `remove` now, or later when a backup holds deletes. */
  async run(key: string, remove: () => Promise<void>): Promise<void> {
    if (!deletesHeld(this.file)) {
      await remove();
      return;
    }
    this.waiting.set(key, remove);
    this.timer ??= setInterval(() => void this.settle(), RECHECK_MS);
    this.timer.unref();
  }

  /** A file written again under `key` is not deleted by an earlier, held delete. */
  forget(key: string): void {
    this.waiting.delete(key);
  }

  /** Deletes that wait for a hold. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Runs the waiting deletes when nothing holds them any more; how many are still waiting. */
  async settle(): Promise<number> {
    if (this.waiting.size === 0 || deletesHeld(this.file)) return this.waiting.size;
    const removals = [...this.waiting.values()];
    this.waiting.clear();
    clearInterval(this.timer);
    this.timer = undefined;
    // A file left behind by a failed delete is only disk space.
    await Promise.allSettled(removals.map((remove) => remove()));
    return this.waiting.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
