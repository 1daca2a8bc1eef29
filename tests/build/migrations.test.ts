// A migration that has shipped never changes: a database that applied it is never told (Drizzle
// applies only migrations newer than the last one it recorded), so an edit reaches fresh
// databases and no other. server/db/migrations/checksums.json holds every migration's sha256
// (the hash Drizzle records in drizzle.__drizzle_migrations); a new migration is added to it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../server/db/migrations');

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

/** What is wrong with a migrations folder against its checksums.json, one sentence a problem. */
function migrationProblems(folder: string): string[] {
  const checksums = JSON.parse(fs.readFileSync(path.join(folder, 'checksums.json'), 'utf8')) as Record<string, string>;
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as Journal;
  const files = fs.readdirSync(folder).filter((file) => file.endsWith('.sql'));
  const problems: string[] = [];
  for (const [file, sum] of Object.entries(checksums)) {
    if (!files.includes(file)) {
      problems.push(`${file} was deleted: a shipped migration never changes or goes; write a new one that undoes it.`);
      continue;
    }
    const actual = crypto.createHash('sha256').update(fs.readFileSync(path.join(folder, file))).digest('hex');
    if (actual !== sum) {
      problems.push(
        `${file} changed after it shipped: a shipped migration never changes (databases that applied it ` +
          `never see the edit); restore it and write a new migration with the change.`,
      );
    }
  }
  for (const file of files) {
    if (!(file in checksums)) {
      problems.push(`${file} is not in checksums.json: add its sha256 there (sha256sum ${file}).`);
    }
  }
  journal.entries.forEach((entry, index) => {
    if (!files.includes(`${entry.tag}.sql`)) problems.push(`The journal names ${entry.tag}, which has no file.`);
    const before = journal.entries[index - 1];
    if (before && entry.when <= before.when) {
      problems.push(
        `${entry.tag} is dated before ${before.tag}: a database that applied ${before.tag} would never apply it.`,
      );
    }
  });
  for (const file of files) {
    if (!journal.entries.some((entry) => `${entry.tag}.sql` === file)) problems.push(`${file} is not in the journal.`);
  }
  return problems;
}

function copyOfMigrations(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-migrations-'));
  fs.cpSync(MIGRATIONS, folder, { recursive: true });
  return folder;
}

describe('shipped migrations', () => {
  it('are exactly as they shipped, each listed, in order', () => {
    expect(migrationProblems(MIGRATIONS)).toEqual([]);
  });

  it('an edited, deleted, unlisted or back-dated migration is named', () => {
    const folder = copyOfMigrations();
    try {
      fs.appendFileSync(path.join(folder, '0005_content_versions.sql'), '\n-- an afterthought\n');
      fs.rmSync(path.join(folder, '0002_materials.sql'));
      fs.writeFileSync(path.join(folder, '0099_new.sql'), 'SELECT 1;');
      const journalFile = path.join(folder, 'meta/_journal.json');
      const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as Journal;
      journal.entries.push({ ...journal.entries[0]!, idx: journal.entries.length, tag: '0099_new' });
      fs.writeFileSync(journalFile, JSON.stringify(journal));
      const problems = migrationProblems(folder);
      expect(problems).toEqual([
        expect.stringContaining('0002_materials.sql was deleted'),
        expect.stringContaining('0005_content_versions.sql changed after it shipped: a shipped migration never changes'),
        expect.stringContaining('0099_new.sql is not in checksums.json'),
        'The journal names 0002_materials, which has no file.',
        expect.stringContaining('0099_new is dated before'),
      ]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
