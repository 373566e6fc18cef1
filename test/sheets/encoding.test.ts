import { describe, expect, it } from 'vitest';

import {
  holdsUtf8Character,
  mostlyUtf8,
  strayBytesError,
  Utf8Census,
} from '../../src/sheets/encoding.js';

function census(...chunks: number[][]): Utf8Census {
  const counted = new Utf8Census();
  for (const chunk of chunks) counted.push(Buffer.from(chunk));
  return counted.end();
}

const counts = (c: Utf8Census) => [c.characters, c.invalid];

describe('Utf8Census', () => {
  it.each([
    ['ASCII', [0x61, 0x0a, 0x62], [0, 0]],
    ['é', [0xc3, 0xa9], [1, 0]],
    ['€', [0xe2, 0x82, 0xac], [1, 0]],
    ['an emoji', [0xf0, 0x9f, 0x98, 0x80], [1, 0]],
    ['è in Windows-1252', [0x4c, 0x69, 0xe8, 0x67, 0x65], [0, 1]],
    ['a lone continuation byte', [0x80], [0, 1]],
    ['an overlong 2-byte form', [0xc0, 0x80], [0, 2]],
    ['an overlong 3-byte form', [0xe0, 0x80, 0x80], [0, 3]],
    ['a surrogate', [0xed, 0xa0, 0x80], [0, 3]],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], [0, 4]],
    ['a character cut short by ASCII', [0xe2, 0x82, 0x61], [0, 1]],
    ['a character the input ends inside', [0x61, 0xe2, 0x82], [0, 1]],
    ['É and a non-breaking space in Windows-1252', [0xc9, 0xa0], [1, 0]],
    ['UTF-8 and a stray byte', [0xc3, 0xa9, 0x20, 0xe9, 0x20, 0xc3, 0xa7], [2, 1]],
  ])('counts %s', (_what, bytes, expected) => {
    expect(counts(census(bytes))).toEqual(expected);
  });

  it('counts a character cut between two chunks once, as valid', () => {
    expect(counts(census([0x61, 0xe2], [0x82], [0xac, 0x62]))).toEqual([1, 0]);
    expect(counts(census([0xf0, 0x9f, 0x98], [0x80]))).toEqual([1, 0]);
  });

  it('keeps the first five lines with invalid bytes, each once, and counts them all', () => {
    const lines: number[][] = [];
    for (let line = 1; line <= 8; line++) lines.push(line % 2 === 0 ? [0xe9, 0xe9, 0x0a] : [0x0a]);
    const counted = census(...lines);
    expect(counted.lines).toEqual([2, 4, 6, 8]);
    expect(counted.linesWithInvalid).toBe(4);
    expect(counted.invalid).toBe(8);
    const many = census(...Array.from({ length: 9 }, () => [0x92, 0x0a]));
    expect(many.lines).toEqual([1, 2, 3, 4, 5]);
    expect(many.linesWithInvalid).toBe(9);
  });
});

describe('mostlyUtf8', () => {
  it.each([
    ['valid UTF-8', [0xc3, 0xa9], false, false],
    ['Windows-1252 accents only', [0xe8, 0x20, 0xe9], false, false],
    ['one UTF-8 character and one stray byte', [0xc3, 0xa9, 0x20, 0xe9], false, true],
    ['more UTF-8 characters than stray bytes', [0xc3, 0xa9, 0xc3, 0xa7, 0xe9], false, true],
    [
      'one accidental pair among Windows-1252 accents',
      [0xc9, 0xa0, 0xe8, 0x20, 0xe9],
      false,
      false,
    ],
    ['a byte-order mark and a stray byte', [0x61, 0xe9], true, true],
  ])('%s: %s', (_what, bytes, bom, expected) => {
    expect(mostlyUtf8(census(bytes), bom)).toBe(expected);
  });
});

describe('strayBytesError', () => {
  const lines = (...numbers: number[]) => {
    const bytes: number[] = [];
    for (let line = 1; line <= Math.max(...numbers); line++) {
      if (numbers.includes(line)) bytes.push(0xe9);
      bytes.push(0x0a);
    }
    return strayBytesError(census(bytes)).message;
  };

  it.each([
    [[3], 'on line 3 that'],
    [[3, 7], 'on lines 3 and 7 that'],
    [[1, 2, 3, 4, 5], 'on lines 1, 2, 3, 4 and 5 that'],
    [[1, 2, 3, 4, 5, 9], 'on lines 1, 2, 3, 4, 5 and 1 more line that'],
    [[1, 2, 3, 4, 5, 8, 9], 'on lines 1, 2, 3, 4, 5 and 2 more lines that'],
  ])('names %j', (numbers, expected) => {
    expect(lines(...numbers)).toContain(expected);
  });
});

describe('holdsUtf8Character', () => {
  it.each([
    [[0x61, 0x62], false],
    [[0xe9, 0x61], false],
    [[0x61, 0xc3, 0xa9], true],
    [[0xe2, 0x82, 0xac], true],
    [[0xed, 0xa0, 0x80], false],
  ])('%j: %s', (bytes, expected) => {
    expect(holdsUtf8Character(Buffer.from(bytes))).toBe(expected);
  });
});
