import { describe, expect, it } from 'vitest';

import { detectDelimiter, separatorHint } from '../../src/sheets/delimiter.js';

describe('detectDelimiter', () => {
  it.each([
    ['a,b,c\n1,2,3', ','],
    ['a;b;c\r\n1;2;3', ';'],
    ['a\tb\tc\n', '\t'],
    ['only\n', ','],
    ['', ','],
    ['"a;b","c;d",e,f\n', ','],
    ['"Straat, nr";Gemeente;Postcode\n', ';'],
    ['a;b,c;d\n1,2,3,4,5,6\n', ';'],
    ['\n\r\n  a;b;c\n', ';'],
  ])('%j → %j', (head, delimiter) => {
    expect(detectDelimiter(head)).toBe(delimiter);
  });
});

describe('separatorHint', () => {
  it.each([
    ['sep=;\r\na;b\n', ';'],
    ['SEP=,\na,b\n', ','],
    ['sep=\t\na\tb\n', '\t'],
    ['sep=|\na|b\n', undefined],
    ['a;b\nsep=;\n', undefined],
  ])('%j → %j', (head, hint) => {
    expect(separatorHint(head)).toBe(hint);
  });
});
