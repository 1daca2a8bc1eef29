import { describe, expect, it } from 'vitest';
import { JSON_DEPTH_MAX, isStorableText, jsonObject, text } from '../../contract/text';

describe('storable text', () => {
  it('refuses a NUL character and a lone surrogate, and keeps every other character', () => {
    expect(isStorableText('Кроссовки 👟 运动鞋\t\n')).toBe(true);
    expect(isStorableText('shoe\u0000.jpg')).toBe(false);
    expect(isStorableText('shoe\ud83d.jpg')).toBe(false);
    expect(isStorableText('\udc5f')).toBe(false);
    expect(isStorableText('\udc5f\ud83d')).toBe(false);
    expect(isStorableText('\ud83d\udc5f')).toBe(true);
  });

  it('fails with the text rule, before and whatever the other checks', () => {
    const name = text().trim().min(1).max(10);
    expect(name.parse(' shoe ')).toBe('shoe');
    const failed = name.safeParse('a\u0000b');
    expect(failed.error?.issues.map((issue) => issue.message)).toEqual(['rule:text']);
  });
});

describe('a JSON object kept as sent', () => {
  const nested = (depth: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i += 1) value = i % 2 ? { a: value } : [value];
    return value;
  };

  it('takes plain JSON and refuses unstorable text in any key or string, at any depth', () => {
    const schema = jsonObject();
    expect(schema.parse({ crop: [0, 1, { x: 'ok' }], note: null })).toEqual({ crop: [0, 1, { x: 'ok' }], note: null });
    expect(schema.safeParse({ 'k\u0000': 1 }).error?.issues[0]?.message).toBe('rule:text');
    expect(schema.safeParse({ a: [{ b: 'x\ud800' }] }).error?.issues[0]?.message).toBe('rule:text');
  });

  it(`nests at most ${JSON_DEPTH_MAX} deep`, () => {
    const schema = jsonObject();
    expect(schema.safeParse({ a: nested(JSON_DEPTH_MAX - 1) }).success).toBe(true);
    expect(schema.safeParse({ a: nested(JSON_DEPTH_MAX) }).error?.issues[0]?.message).toBe(`rule:too_deep;count=${JSON_DEPTH_MAX}`);
    expect(schema.safeParse({ a: nested(100_000) }).success).toBe(false);
  });
});
