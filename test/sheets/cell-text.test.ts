import { describe, expect, it } from 'vitest';

import {
  CellError,
  cellText,
  dateText,
  isDateFormat,
  numberText,
  serialText,
} from '../../src/sheets/cell-text.js';

describe('a workbook cell as the text Excel shows', () => {
  it.each<[unknown, string]>([
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['  Gent ', '  Gent '],
    ['=not a formula', '=not a formula'],
    [1398, '1398'],
    [1398.0, '1398'],
    [-0, '0'],
    [-12, '-12'],
    [9000, '9000'],
    [12.5, '12.5'],
    [0.1 + 0.2, '0.3'],
    [1 / 3, '0.333333333333333'],
    [123456789012345, '123456789012345'],
    [1e21, '1e+21'],
    [true, 'TRUE'],
    [false, 'FALSE'],
    [new Date(Date.UTC(2026, 11, 1)), '2026-12-01'],
    [new Date(Date.UTC(2026, 11, 1, 14, 30, 5)), '2026-12-01 14:30:05'],
    [new Date(Date.UTC(2026, 11, 1, 11, 59, 59, 999)), '2026-12-01 12:00:00'],
    [new Date(Date.UTC(2026, 11, 1, 23, 59, 59, 600)), '2026-12-02'],
    [{ richText: [{ text: 'Kerk' }, { text: 'straat' }] }, 'Kerkstraat'],
    [{ richText: [] }, ''],
    [{ formula: 'A1+1', result: 12 }, '12'],
    [{ formula: 'A1&""', result: 'Gent' }, 'Gent'],
    [{ sharedFormula: 'B2', result: 7.25 }, '7.25'],
    [{ formula: 'TODAY()', result: new Date(Date.UTC(2026, 0, 2)) }, '2026-01-02'],
    [{ text: 'the plan', hyperlink: 'https://example.invalid/plan' }, 'the plan'],
    [{ text: { richText: [{ text: 'a' }, { text: 'b' }] }, hyperlink: 'x' }, 'ab'],
  ])('%j → %j', (value, text) => {
    expect(cellText(value)).toBe(text);
  });

  it.each<[unknown, string]>([
    [{ error: '#N/A' }, '#N/A'],
    [{ error: '#DIV/0!' }, '#DIV/0!'],
    [{ formula: 'A1' }, 'a formula without a saved result'],
    [{ formula: 'NA()', result: Number.NaN }, 'a formula whose result is an error'],
    [Number.POSITIVE_INFINITY, '#NUM!'],
    [new Date(Number.NaN), '#VALUE!'],
    [{ sharedString: 3 }, 'a value of an unknown kind'],
  ])('%j shows an error', (value, shows) => {
    const text = cellText(value);
    expect(text).toBeInstanceOf(CellError);
    expect((text as CellError).shows).toBe(shows);
  });

  it('reads a number formatted as a date (a formula’s result) as a date', () => {
    expect(cellText(46357, 'yyyy-mm-dd')).toBe('2026-12-01');
    expect(cellText({ formula: 'A1+1', result: 46357.5 }, 'dd/mm/yyyy hh:mm')).toBe(
      '2026-12-01 12:00:00',
    );
    expect(cellText(46357, '0.00')).toBe('46357');
    expect(cellText(46357)).toBe('46357');
  });

  it.each([
    ['yyyy-mm-dd', true],
    ['d/m/yy', true],
    ['[$-813]dd mmmm yyyy', true],
    ['h:mm:ss', true],
    ['General', false],
    ['0.00', false],
    ['#,##0.00 [$€-813]', false],
    ['0%', false],
    ['"days: "0', false],
    ['[Red]0.00', false],
    ['0.00E+00', false],
  ])('%s is a date format: %s', (format, date) => {
    expect(isDateFormat(format)).toBe(date);
  });

  it('counts Excel’s serials from 1899-12-30', () => {
    expect(serialText(1)).toBe('1899-12-31');
    expect(serialText(45658)).toBe('2025-01-01');
    expect(serialText(-1)).toBe('-1');
    expect(dateText(new Date(Date.UTC(2000, 1, 29, 0, 0, 0, 400)))).toBe('2000-02-29');
    expect(numberText(2.5)).toBe('2.5');
  });
});
