// The one translation catalogue (contract/locales/<lang>/<namespace>.ts) against the code that
// reads it: the page, the server's answers, the form rules, the e-mails and the studio's words.
// Compared key path by key path ('task.confirm.total'), never section by section, so a section that
// two files share cannot hide a key one of them lacks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../contract/locales';
import { DYNAMIC, NAMED_ELSEWHERE } from './catalogue/dynamic';
import { scanSources } from './catalogue/usage';

type Tree = { [key: string]: string | Tree };

const root = path.resolve(import.meta.dirname, '../..');
const CATALOGUE = path.join(root, 'contract/locales');
const FORM = /_(zero|one|two|few|many|other)$/;
/** A count written around instead of in its plural forms: "файл(ов)", "file(s)". */
const WRITTEN_AROUND = /\p{L}\((s|es|а|ы|и|ов|ей)\)/u;

function sourceFiles(dir: string, out: Record<string, string> = {}): Record<string, string> {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (file !== 'contract/locales') sourceFiles(file, out);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out[file] = fs.readFileSync(path.join(root, file), 'utf8');
    }
  }
  return out;
}

function leaves(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(keyPath, value);
    else leaves(value, keyPath, out);
  }
  return out;
}

interface Language {
  /** Namespace file → its top-level sections. */
  namespaces: Map<string, string[]>;
  /** Every text by key path, a counted text by its base key (`wallet.tokens`) with its forms. */
  texts: Map<string, Map<string, string>>;
}

async function load(locale: Locale): Promise<Language> {
  const language: Language = { namespaces: new Map(), texts: new Map() };
  for (const file of fs.readdirSync(path.join(CATALOGUE, locale)).sort()) {
    const tree = ((await import(path.join(CATALOGUE, locale, file))) as { default: Tree }).default;
    language.namespaces.set(file, Object.keys(tree));
    for (const [key, text] of leaves(tree)) {
      const form = FORM.exec(key)?.[1] ?? '';
      const base = form ? key.slice(0, -form.length - 1) : key;
      const forms = language.texts.get(base) ?? new Map<string, string>();
      language.texts.set(base, forms.set(form, text));
    }
  }
  return language;
}

const languages = new Map<Locale, Language>();
for (const locale of LOCALES) languages.set(locale, await load(locale));
const ru = languages.get('ru')!;

const sections = new Set([...languages.values()].flatMap((language) => [...language.namespaces.values()].flat()));
const usage = scanSources(Object.assign({}, ...['src', 'server', 'contract', 'workers'].map((dir) => sourceFiles(dir))), sections);

/** Every key the code reads, with where it is named. */
const used = new Map<string, string>();
const where = (files: Set<string>) => [...files].join(', ');
for (const [key, files] of usage.keys) used.set(key, where(files));
for (const [name, files] of usage.messages) used.set(`messages.${name}`, where(files));
for (const [name, files] of usage.rules) used.set(`rules.${name}`, where(files));
for (const name of usage.bare) if (ru.texts.has(`messages.${name}`)) used.set(`messages.${name}`, 'an upper-case literal');
const undeclared: string[] = [];
for (const [pattern, files] of usage.patterns) {
  if (pattern in NAMED_ELSEWHERE) continue;
  const values = DYNAMIC[pattern];
  if (!values) undeclared.push(`${pattern} (${where(files)})`);
  else for (const value of values) used.set(pattern.replace('*', value), `${pattern} in ${where(files)}`);
}

const placeholders = (texts: Map<string, string>) =>
  [...new Set([...texts.values()].flatMap((text) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!)))].sort();

describe('the code and the catalogue', () => {
  it('build keys only in declared ways, every declared one still in use', () => {
    const stale = Object.keys(DYNAMIC).filter((pattern) => !usage.patterns.has(pattern));
    expect({ undeclared, stale }).toEqual({ undeclared: [], stale: [] });
  });

  it('name no key that a language lacks', () => {
    const missing = LOCALES.flatMap((locale) =>
      [...used].filter(([key]) => !languages.get(locale)!.texts.has(key)).map(([key, from]) => `${locale}: ${key} (${from})`),
    );
    expect(missing).toEqual([]);
  });

  it('hold no key that nothing reads', () => {
    const unused = LOCALES.flatMap((locale) => [...languages.get(locale)!.texts.keys()].filter((key) => !used.has(key)).map((key) => `${locale}: ${key}`));
    expect(unused).toEqual([]);
  });
});

describe.each(LOCALES)('%s', (locale) => {
  const language = languages.get(locale)!;
  const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.map(String).sort();

  it('has the namespace files of Russian, each section in one of them', () => {
    expect([...language.namespaces.keys()]).toEqual([...ru.namespaces.keys()]);
    const all = [...language.namespaces.values()].flat();
    expect(all.filter((section, index) => all.indexOf(section) !== index)).toEqual([]);
  });

  it(`counts in exactly its plural forms (${forms.join(', ')}), the texts Russian counts`, () => {
    const wrong: string[] = [];
    for (const [key, texts] of language.texts) {
      const has = [...texts.keys()].filter(Boolean).sort();
      const russian = ru.texts.get(key);
      if (has.length === 0) {
        if (russian && !russian.has('')) wrong.push(`${key}: not counted, unlike Russian`);
        continue;
      }
      if (texts.has('')) wrong.push(`${key}: both a plain text and plural forms`);
      if (russian?.has('')) wrong.push(`${key}: counted, unlike Russian`);
      if (has.join() !== forms.join()) wrong.push(`${key}: has ${has.join(', ')}, needs ${forms.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the placeholders of Russian in every text', () => {
    const differ = [...language.texts]
      .filter(([key, texts]) => ru.texts.has(key) && placeholders(texts).join() !== placeholders(ru.texts.get(key)!).join())
      .map(([key, texts]) => `${key}: ${placeholders(texts).join(', ') || 'none'} where Russian has ${placeholders(ru.texts.get(key)!).join(', ') || 'none'}`);
    expect(differ).toEqual([]);
  });

  it('leaves no text empty and writes no count around its plural', () => {
    const texts = [...language.texts].flatMap(([key, forms]) => [...forms].map(([form, text]) => [form ? `${key}_${form}` : key, text] as const));
    expect(texts.filter(([, text]) => text.trim() === '' || WRITTEN_AROUND.test(text)).map(([key, text]) => `${key}: '${text}'`)).toEqual([]);
  });
});
