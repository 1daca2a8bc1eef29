// No import circles anywhere in the repository: `npm run lint` reports a module that reaches
// itself through its imports, type-only imports included (build/eslint-no-cycle.js). Linted here
// through ESLint's Node API with the repository's own config, on files written for the test.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RULE = 'solestudio/no-cycle';
const eslint = new ESLint({ cwd: ROOT });
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** Writes the files into a fresh folder of the repository and lints them; each file's circles, by name. */
async function circlesIn(files: Record<string, string>): Promise<Record<string, string[]>> {
  const folder = fs.mkdtempSync(path.join(ROOT, 'tests/build/no-cycle-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(folder, name)));
  const fatal = results.flatMap((result) => result.messages.filter((message) => message.fatal));
  expect(fatal).toEqual([]);
  return Object.fromEntries(
    results.map((result) => [
      path.basename(result.filePath),
      result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message),
    ]),
  );
}

/** How the rule names a way round, from the folder's files. */
function way(folder: string, ...names: string[]): string {
  return `Import circle: ${names.map((name) => path.relative(ROOT, path.join(folder, name))).join(' → ')}.`;
}

describe('import circles', () => {
  it('are reported on both sides when two files import each other only as types', async () => {
    const circles = await circlesIn({
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
    });
    const folder = folders.at(-1)!;
    expect(circles).toEqual({ 'a.ts': [way(folder, 'a.ts', 'b.ts', 'a.ts')], 'b.ts': [way(folder, 'b.ts', 'a.ts', 'b.ts')] });
  });

  it('are reported the whole way round, through a type re-export and a dynamic import', async () => {
    const circles = await circlesIn({
      'first.ts': "export type { Second } from './second';\nexport const first = 1;\n",
      'second.ts': "export type Second = Awaited<ReturnType<typeof load>>;\nconst load = () => import('./third.js');\n",
      'third.ts': "import { first } from './first';\nexport const third = first + 1;\n",
    });
    const folder = folders.at(-1)!;
    expect(circles).toEqual({
      'first.ts': [way(folder, 'first.ts', 'second.ts', 'third.ts', 'first.ts')],
      'second.ts': [way(folder, 'second.ts', 'third.ts', 'first.ts', 'second.ts')],
      'third.ts': [way(folder, 'third.ts', 'first.ts', 'second.ts', 'third.ts')],
    });
  });

  it('are not seen where imports only go one way', async () => {
    const circles = await circlesIn({
      'top.ts': "import type { Leaf } from './leaf';\nimport { middle } from './middle';\nexport const top: Leaf = middle;\n",
      'middle.ts': "import type { Leaf } from './leaf';\nexport const middle: Leaf = 'leaf';\n",
      'leaf.ts': "export type Leaf = 'leaf';\n",
    });
    expect(circles).toEqual({ 'top.ts': [], 'middle.ts': [], 'leaf.ts': [] });
  });

  it.each(['src/x.tsx', 'workers/x.ts', 'server/x.ts', 'contract/x.ts', 'tests/x.ts', 'bench/x.ts', 'scripts/x.mjs', 'e2e/x.ts', 'build/x.ts', 'x.config.js'])(
    'are an error in %s',
    async (file) => {
      const config = (await eslint.calculateConfigForFile(path.join(ROOT, file))) as { rules?: Record<string, unknown> };
      expect(config.rules?.[RULE]).toEqual([2]);
    },
  );
});
