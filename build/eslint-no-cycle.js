// An ESLint rule: no import circles (STYLE.md), type-only imports included, since a reader follows
// an `import type` like any other import. eslint-plugin-import-x's no-cycle cannot do that: it
// skips type-only imports whatever its options (and it would have missed both circles src/offline
// had), and it parses every file it follows, which doubled the CPU time of this repository's lint.
// This rule builds the graph itself from each file's imports as TypeScript's pre-processor lists
// them (import and export … from, type-only or not, import(), import types, require), resolved as
// TypeScript resolves them (eslint-import-resolver-typescript), first-party files only. Every
// import that leads back to its file is reported, with the shortest way round.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** How long a file's imports are trusted before its modification time is looked at again (an editor's process lives on). */
const FRESH_MS = 5_000;
/** Files that can import: a JSON module or a stylesheet cannot lead back. */
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** @typedef {{ resolve(source: string, file: string): { found: boolean; path?: string | null } }} Resolver */
/** @typedef {{ imports: string[]; mtimeMs: number; checkedAt: number }} Entry */

/** @type {Map<string, Resolver>} by tsconfig */
const resolvers = new Map();
/** @type {Map<string, Entry>} by absolute path: the first-party files each file imports */
const graph = new Map();

/** @param {string | string[]} project */
function resolverFor(project) {
  const key = JSON.stringify(project);
  let resolver = resolvers.get(key);
  if (!resolver) {
    resolver = createTypeScriptImportResolver({ project, noWarnOnMultipleProjects: true });
    resolvers.set(key, resolver);
  }
  return resolver;
}

/**
 * The first-party file an import names, or undefined (a package, a built-in, a file not found).
 * @param {Resolver} resolver @param {string} root @param {string} specifier @param {string} importer
 */
function target(resolver, root, specifier, importer) {
  const resolved = resolver.resolve(specifier, importer);
  const file = resolved.found ? resolved.path : undefined;
  if (!file || !SOURCE.test(file) || file.split(path.sep).includes('node_modules')) return undefined;
  return path.relative(root, file).startsWith('..') ? undefined : path.normalize(file);
}

/** @param {string} text */
const referencesIn = (text) => ts.preProcessFile(text, true, true).importedFiles;

/**
 * The first-party files a file on disk imports, read again once it has changed.
 * @param {Resolver} resolver @param {string} root @param {string} file
 * @returns {string[]}
 */
function importsOf(resolver, root, file) {
  const now = Date.now();
  const known = graph.get(file);
  if (known && now - known.checkedAt < FRESH_MS) return known.imports;
  let mtimeMs = -1;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    // Gone: it imports nothing.
  }
  if (known && known.mtimeMs === mtimeMs) {
    known.checkedAt = now;
    return known.imports;
  }
  const text = mtimeMs < 0 ? '' : fs.readFileSync(file, 'utf8');
  const imports = [...new Set(referencesIn(text).flatMap(({ fileName }) => target(resolver, root, fileName, file) ?? []))];
  graph.set(file, { imports, mtimeMs, checkedAt: now });
  return imports;
}

/**
 * The shortest way from `start` back to `file` ([start, …, file]), or undefined. Files found not
 * to lead back are added to `dead`, so the file's other imports do not walk them again.
 * @param {(file: string) => string[]} importsOf @param {string} start @param {string} file @param {Set<string>} dead
 * @returns {string[] | undefined}
 */
function wayBack(importsOf, start, file, dead) {
  if (start === file) return [file];
  if (dead.has(start)) return undefined;
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  for (const queue = [start]; queue.length > 0; ) {
    const current = /** @type {string} */ (queue.shift());
    for (const next of importsOf(current)) {
      if (next === file) {
        const way = [file];
        for (let at = /** @type {string | null} */ (current); at !== null; at = cameFrom.get(at) ?? null) way.unshift(at);
        return way;
      }
      if (dead.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      queue.push(next);
    }
  }
  for (const walked of cameFrom.keys()) dead.add(walked);
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import that leads back to the importing file, type-only imports included.' },
    schema: [
      {
        type: 'object',
        properties: {
          project: {
            description: 'The tsconfig file(s) imports are resolved with, from the working directory.',
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          },
        },
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'Import circle: {{way}}.' },
  },
  create(context) {
    const file = path.normalize(context.physicalFilename);
    if (!path.isAbsolute(file) || !SOURCE.test(file)) return {};
    const root = context.cwd;
    const resolver = resolverFor(context.options[0]?.project ?? path.join(root, 'tsconfig.json'));
    const imports = (/** @type {string} */ from) => importsOf(resolver, root, from);
    const name = (/** @type {string} */ each) => path.relative(root, each);
    return {
      'Program:exit'() {
        const { sourceCode } = context;
        /** @type {Set<string>} */
        const dead = new Set();
        for (const { fileName, pos, end } of referencesIn(sourceCode.text)) {
          const start = target(resolver, root, fileName, file);
          const way = start && wayBack(imports, start, file, dead);
          if (!way) continue;
          context.report({
            loc: { start: sourceCode.getLocFromIndex(pos), end: sourceCode.getLocFromIndex(end) },
            messageId: 'cycle',
            data: { way: [file, ...way].map(name).join(' → ') },
          });
        }
      },
    };
  },
};
