import { describe, expect, it } from 'vitest';

import { ReferenceSet, seededFnv1a } from '../../src/sheets/reference-set.js';

/** Every reference hashes alike: each lookup is decided by comparing bytes alone. */
const oneHash = () => 7;

describe('the references a sheet has used', () => {
  it('takes a million distinct references as new, and knows each one again with its first row', () => {
    const set = new ReferenceSet();
    let seenBefore = 0;
    for (let row = 1; row <= 1_000_000; row++) {
      if (set.earlierRow(`REF-${row}`, row) !== undefined) seenBefore += 1;
    }
    expect(seenBefore).toBe(0);
    expect(set.size).toBe(1_000_000);
    let wrongRow = 0;
    for (let row = 1; row <= 1_000_000; row++) {
      if (set.earlierRow(`REF-${row}`, 2_000_000) !== row) wrongRow += 1;
    }
    expect(wrongRow).toBe(0);
    expect(set.size).toBe(1_000_000);
  });

  it('names the first row of a reference used three times, not the second', () => {
    const set = new ReferenceSet();
    expect(set.earlierRow('A-1', 4)).toBeUndefined();
    expect(set.earlierRow('A-1', 9)).toBe(4);
    expect(set.earlierRow('A-1', 12)).toBe(4);
  });

  it('tells apart references whose hashes are all the same', () => {
    const set = new ReferenceSet(oneHash);
    const references = ['', 'a', 'b', 'ab', 'ba', 'abc', 'R1', 'R10', 'R100', 'r1'];
    for (let i = 0; i < 2000; i++) references.push(`X${i}`);
    references.forEach((reference, i) => {
      expect(set.earlierRow(reference, i + 1)).toBeUndefined();
    });
    references.forEach((reference, i) => {
      expect(set.earlierRow(reference, 99_999)).toBe(i + 1);
    });
    expect(set.size).toBe(references.length);
  });

  it('tells apart a reference from its prefix, across growth of every store', () => {
    const set = new ReferenceSet(oneHash);
    const long = 'x'.repeat(100_000);
    expect(set.earlierRow(long, 1)).toBeUndefined();
    expect(set.earlierRow(long.slice(1), 2)).toBeUndefined();
    expect(set.earlierRow(`${long}y`, 3)).toBeUndefined();
    expect(set.earlierRow(long, 4)).toBe(1);
    expect(set.earlierRow(`${long}y`, 5)).toBe(3);
  });

  it('keeps references longer than a chunk of bytes, and rows past 2^32', () => {
    const set = new ReferenceSet();
    const huge = 'h'.repeat(5_000_000);
    expect(set.earlierRow('before', 1)).toBeUndefined();
    expect(set.earlierRow(huge, 2 ** 40)).toBeUndefined();
    expect(set.earlierRow('after', 3)).toBeUndefined();
    expect(set.earlierRow(huge, 5)).toBe(2 ** 40);
    expect(set.earlierRow('before', 6)).toBe(1);
    expect(set.earlierRow('after', 7)).toBe(3);
  });

  it('tells apart characters beyond ASCII, lone surrogates included (one UTF-8 would garble alike)', () => {
    const set = new ReferenceSet(oneHash);
    const references = [
      'é',
      'e\u0301',
      'ü',
      '€',
      '😀',
      '\ud83d',
      '\ude00',
      '\ufffd',
      'ß',
      'ss',
      '\u0080',
    ];
    references.forEach((reference, i) => {
      expect(set.earlierRow(reference, i + 1)).toBeUndefined();
    });
    references.forEach((reference, i) => {
      expect(set.earlierRow(reference, 0)).toBe(i + 1);
    });
  });

  it('finds a true duplicate among references that share their hash ten by ten', () => {
    // The hash ignores the last byte: R1230 to R1239 share one, and are still told apart.
    const fnv = seededFnv1a(1);
    const set = new ReferenceSet((bytes, length) => fnv(bytes, length - 1));
    let seenBefore = 0;
    for (let row = 1; row <= 200_000; row++) {
      if (set.earlierRow(`R${row}`, row) !== undefined) seenBefore += 1;
    }
    expect(seenBefore).toBe(0);
    expect(set.earlierRow('R123456', 0)).toBe(123_456);
    expect(set.earlierRow('R123457', 0)).toBe(123_457);
    expect(set.earlierRow('R200001', 200_001)).toBeUndefined();
  });

  it('spreads references of one shape over the slots (the default hash)', () => {
    const hash = seededFnv1a(12345);
    const encoder = new TextEncoder();
    const buckets = new Array<number>(1 << 10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const encoded = encoder.encode(`REF-${i}`);
      const bucket = hash(encoded, encoded.length) & 0x3ff;
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    // 100,000 over 1,024 buckets: about 98 each; a poor spread leaves some twice as full.
    expect(Math.max(...buckets)).toBeLessThan(160);
    expect(Math.min(...buckets)).toBeGreaterThan(50);
  });
});
