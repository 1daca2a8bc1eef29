import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripIosStyles } from '../../build/ionic-md-only';
import { readVersionInfo } from '../../build/version-file';

describe('stripIosStyles', () => {
  it('empties the iOS stylesheet and keeps the Material one', () => {
    const code =
      'class A{static get style(){return{ios:":host{color:\\"red\\"}",md:":host{color:blue}"}}}' +
      "class B{static get style(){return{ios:':host{a:b}',md:':host{c:d}'}}}";
    expect(stripIosStyles(code)).toBe(
      'class A{static get style(){return{ios:"",md:":host{color:blue}"}}}' +
        "class B{static get style(){return{ios:\"\",md:':host{c:d}'}}}",
    );
  });

  it('leaves code of another shape alone', () => {
    const code = 'class C{static get style(){return":host{display:block}"}}';
    expect(stripIosStyles(code)).toBe(code);
  });

  it('works on the real Ionic button', () => {
    const components = path.resolve(import.meta.dirname, '../../node_modules/@ionic/core/components');
    const source = fs
      .readdirSync(components)
      .filter((file) => file.endsWith('.js'))
      .map((file) => fs.readFileSync(path.join(components, file), 'utf8'))
      .find((code) => code.includes('static get style(){return{ios:') && code.includes('"ion-button"'));
    if (!source) throw new Error('Ionic button source not found');
    const stripped = stripIosStyles(source);
    expect(stripped.length).toBeLessThan(source.length * 0.8);
    expect(stripped).toContain('md:');
    expect(() => new Function(stripped.replace(/^import.*$/gm, '').replace(/export\s*\{[^}]*\}/g, ''))).not.toThrow();
  });
});

describe('readVersionInfo', () => {
  it('combines package.json and release.json and validates them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-version-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '2.3.4' }));
    fs.writeFileSync(
      path.join(dir, 'release.json'),
      JSON.stringify({ forceUpdate: true, changelog: { ru: 'р', en: 'e', zh: '中' } }),
    );
    expect(readVersionInfo(path.join(dir, 'package.json'), path.join(dir, 'release.json'))).toEqual({
      version: '2.3.4',
      changelog: { ru: 'р', en: 'e', zh: '中' },
      forceUpdate: true,
    });
    fs.writeFileSync(path.join(dir, 'release.json'), JSON.stringify({ forceUpdate: 'yes', changelog: {} }));
    expect(() => readVersionInfo(path.join(dir, 'package.json'), path.join(dir, 'release.json'))).toThrow();
  });

  it('refuses a version below the client baseline, which no client in the field would be offered', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-version-'));
    fs.writeFileSync(path.join(dir, 'release.json'), JSON.stringify({ forceUpdate: false, changelog: { ru: 'р', en: 'e', zh: '中' } }));
    const read = (version: string) => {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version }));
      return () => readVersionInfo(path.join(dir, 'package.json'), path.join(dir, 'release.json'));
    };
    expect(read('1.9.9')).toThrow(/below the client baseline 2\.0\.0/);
    expect(read('2.0.0')).not.toThrow();
  });

  it('reads this repository’s release', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const info = readVersionInfo(path.join(root, 'package.json'), path.join(root, 'release.json'));
    expect(info.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
