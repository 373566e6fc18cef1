import { describe, expect, it } from 'vitest';

import { phpJson, phpObject } from '../../sandbox/php-json.js';

describe('phpJson (json_encode as Laravel calls it, with no flags)', () => {
  it.each([
    [null, 'null'],
    [true, 'true'],
    [false, 'false'],
    [42, '42'],
    [-7, '-7'],
    ['plain', '"plain"'],
    ['Studio / Appartement', '"Studio \\/ Appartement"'],
    ['Liège', '"Li\\u00e8ge"'],
    ['a"b', '"a\\"b"'],
    ["l'eau", '"l\'eau"'],
    ['<b>&', '"<b>&"'],
    ['back\\slash', '"back\\\\slash"'],
    ['line\nbreak\ttab', '"line\\nbreak\\ttab"'],
    ['\u0001', '"\\u0001"'],
    ['€', '"\\u20ac"'],
    [[], '[]'],
    [[1, 'a'], '[1,"a"]'],
    [{ a: 1, b: [null] }, '{"a":1,"b":[null]}'],
  ])('encodes %j as %s', (value, text) => {
    expect(phpJson(value)).toBe(text);
  });

  it('parses back to the same value', () => {
    const value = { name: 'Zoë <"O\'Brien"> & co / 50%', list: [1, 'é', null] };
    expect(JSON.parse(phpJson(value))).toEqual(value);
  });

  it('encodes an emoji as a surrogate pair, as PHP does', () => {
    expect(phpJson('😀')).toBe('"\\ud83d\\ude00"');
  });

  it('writes an object that repeats a key when asked to', () => {
    expect(
      phpObject([
        ['k', 'first'],
        ['k', null],
      ]),
    ).toBe('{"k":"first","k":null}');
  });
});
