// Every text exists in every language, with the same placeholders.
import { describe, expect, it } from 'vitest';
import ruCore from '../../../src/locales/ru';
import ruAccount from '../../../src/locales/ru-account';
import en from '../../../src/locales/en';
import zh from '../../../src/locales/zh';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** Russian as the app has it once the account screens have loaded. */
const ru = { ...ruCore, ...ruAccount };

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe.each([
  ['en', en],
  ['zh', zh],
])('%s translation', (_name, translation) => {
  const base = leaves(ru as Tree);
  const other = leaves(translation as Tree);

  it('has exactly the keys of the Russian file', () => {
    expect([...other.keys()].sort()).toEqual([...base.keys()].sort());
  });

  it('keeps every placeholder', () => {
    for (const [key, text] of base) {
      expect(placeholders(other.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('leaves no text empty', () => {
    for (const [key, text] of other) expect(text.trim(), key).not.toBe('');
  });
});
