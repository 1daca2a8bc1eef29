// Every text exists in every language, with the same placeholders. Compared key path by key path
// (`landing.comments.c1.text`), never section by section: Russian comes in two files that the app
// merges deeply (lib/account-texts.ts), so a section both files had would otherwise hide the
// keys one of them lacks.
import { describe, expect, it } from 'vitest';
import ruCore from '../../../src/locales/ru';
import ruAccount from '../../../src/locales/ru-account';
import en from '../../../src/locales/en';
import zh from '../../../src/locales/zh';

type Tree = { [key: string]: string | Tree };

/** Every text by its full key path. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const core = leaves(ruCore as Tree);
const account = leaves(ruAccount as Tree);
/** Russian as the app has it once the account screens have loaded: both files, path by path. */
const ru = new Map([...core, ...account]);

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('the two Russian files', () => {
  it('never define the same text twice (the account file would not replace the core one)', () => {
    expect([...account.keys()].filter((key) => core.has(key))).toEqual([]);
  });
});

describe.each([
  ['en', leaves(en as Tree)],
  ['zh', leaves(zh as Tree)],
])('%s translation', (_name, other) => {
  it('has exactly the key paths of the Russian files', () => {
    expect({ missing: [...ru.keys()].filter((key) => !other.has(key)), extra: [...other.keys()].filter((key) => !ru.has(key)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it('keeps every placeholder', () => {
    for (const [key, text] of ru) {
      expect(placeholders(other.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('leaves no text empty', () => {
    for (const [key, text] of other) expect(text.trim(), key).not.toBe('');
  });
});
