// The migrations folder as a database at an older level saw it: the shipped migrations up to and
// including `tag`, each file's text as `textOf` gives it (as shipped when not given).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../../server/db/client';

/** A new temporary folder (the caller removes it) holding the migrations up to `tag`. */
export function migrationsUpTo(tag: string, textOf: (tag: string) => string | undefined = () => undefined): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-old-migrations-'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  if (upTo < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, upTo + 1);
  fs.mkdirSync(path.join(folder, 'meta'));
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) {
    const file = `${entry.tag}.sql`;
    fs.writeFileSync(path.join(folder, file), textOf(entry.tag) ?? fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return folder;
}
