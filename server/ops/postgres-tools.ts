// PostgreSQL's own tools for PostgreSQL's backups: pg_dump (custom format: compressed, and
// pg_restore can check and reorder it) and pg_restore. They are found on PATH; a dump needs a
// pg_dump at least as new as the server (an older one refuses, or misses what it does not know),
// and a dump is read only by a pg_restore at least as new as the pg_dump that wrote it.
// The password travels in PGPASSWORD, not on the command line, where `ps` would show it.
import { spawn } from 'node:child_process';
import pg from 'pg';

export class PostgresToolProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresToolProblem';
  }
}

/** The URL without its password, and the environment that carries the password. */
function connection(url: string, env: NodeJS.ProcessEnv): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: password ? { ...env, PGPASSWORD: password } : env };
}

/** Runs a tool to its end; its exit code and what it wrote to stderr. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ToolVersion {
  text: string;
  major: number;
}

function majorOf(version: string): number {
  return Number.parseInt(version, 10);
}

/** `pg_dump --version` and the like; explains how to get the tool when it is missing. */
export async function toolVersion(tool: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv, neededMajor: number): Promise<ToolVersion> {
  const install = `Install PostgreSQL's client tools, version ${neededMajor} or newer (e.g. apt install postgresql-client-${neededMajor}), and put ${tool} on PATH`;
  let answer: { code: number | null; stdout: string };
  try {
    answer = await run(tool, ['--version'], env);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new PostgresToolProblem(`${tool} was not found on PATH. ${install}.`);
    throw error;
  }
  const version = /\(PostgreSQL\)\s+(\d+(?:\.\d+)*)/.exec(answer.stdout)?.[1];
  if (answer.code !== 0 || !version) throw new PostgresToolProblem(`${tool} --version did not say its version (${answer.stdout.trim() || `exit ${answer.code}`}). ${install}.`);
  const major = majorOf(version);
  if (major < neededMajor) {
    throw new PostgresToolProblem(`${tool} is version ${version}, older than the ${neededMajor} it needs here. ${install}.`);
  }
  return { text: version, major };
}

/** The server's version, e.g. "15.13". */
export async function serverVersion(url: string): Promise<string> {
  return withClient(url, async (client) => (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0]!);
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What a database holds besides PostgreSQL's own: schemas and relations, a few named. */
export async function databaseContents(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       UNION ALL
       SELECT 'schema ' || nspname FROM pg_namespace
        WHERE nspname NOT IN ('public', 'pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
       LIMIT 5`,
    );
    return rows.map((row) => row.name);
  });
}

export async function pgDump(url: string, target: string, env: NodeJS.ProcessEnv): Promise<void> {
  const to = connection(url, env);
  const answer = await run('pg_dump', ['--format=custom', '--file', target, '--dbname', to.url], to.env);
  if (answer.code !== 0) throw new PostgresToolProblem(`pg_dump failed (exit ${answer.code}): ${answer.stderr.trim()}`);
}

/**
 * Restores a custom-format dump in one transaction: a failure leaves the database as it was.
 * Objects belong to the restoring user, as the server that connects with the same URL expects.
 */
export async function pgRestore(url: string, dump: string, env: NodeJS.ProcessEnv): Promise<void> {
  const to = connection(url, env);
  const answer = await run('pg_restore', ['--single-transaction', '--exit-on-error', '--no-owner', '--no-acl', '--dbname', to.url, dump], to.env);
  if (answer.code !== 0) throw new PostgresToolProblem(`pg_restore failed (exit ${answer.code}); the database is left as it was: ${answer.stderr.trim()}`);
}

export { majorOf as postgresMajor };
