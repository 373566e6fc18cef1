import { describe, expect, it } from 'vitest';

import { neutraliseCell, restoreCell } from '../../src/sheets/excel-text.js';

describe('neutraliseCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+32 470 12 34 56', "'+32 470 12 34 56"],
    ['-5', "'-5"],
    ['-', "'-"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    // Already led by quotes before a formula character: one more, so reading gives it back.
    ["'=x", "''=x"],
    ["''-5", "'''-5"],
  ])('puts a quote before %j', (value, written) => {
    expect(neutraliseCell(value)).toBe(written);
  });

  it.each([
    '',
    'Gent',
    '9000',
    'a=b',
    ' =1+1',
    'x-5',
    "'s-Hertogenbosch",
    "'t Hof",
    "'",
    "''",
    "'x",
    '\nx',
    'é=',
  ])('leaves %j as it is', (value) => {
    expect(neutraliseCell(value)).toBe(value);
  });
});

describe('restoreCell', () => {
  it.each([
    ["'=1+1", '=1+1'],
    ["'+32 470 12 34 56", '+32 470 12 34 56'],
    ["'-5", '-5'],
    ["'@SUM(A1)", '@SUM(A1)'],
    ["'\tx", '\tx'],
    ["'\rx", '\rx'],
    ["''=x", "'=x"],
    ["'''-5", "''-5"],
  ])('drops the quote of %j', (written, value) => {
    expect(restoreCell(written)).toBe(value);
  });

  it.each(['', 'Gent', '=1+1', '-5', "'s-Hertogenbosch", "'t Hof", "'", "''", "'x", " '=x"])(
    'leaves %j as it is',
    (value) => {
      expect(restoreCell(value)).toBe(value);
    },
  );
});

describe('neutraliseCell and restoreCell', () => {
  // Every string of up to 4 characters from an alphabet that holds each case that matters.
  const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', ' ', 'a', '\n'];
  const values: string[] = [''];
  for (let length = 1; length <= 4; length++) {
    for (const value of values.filter((v) => v.length === length - 1)) {
      for (const ch of alphabet) values.push(value + ch);
    }
  }

  it('give back every value exactly, and no written cell begins with a formula character', () => {
    expect(values.length).toBeGreaterThan(10_000);
    for (const value of values) {
      const written = neutraliseCell(value);
      expect(restoreCell(written), JSON.stringify(value)).toBe(value);
      expect(/^[=+\-@\t\r]/.test(written), JSON.stringify(written)).toBe(false);
    }
  });
});
