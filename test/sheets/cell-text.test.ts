import { describe, expect, it } from 'vitest';

import {
  CellError,
  type CellTables,
  dateText,
  isDateFormat,
  numberText,
  serialText,
  xmlCellText,
} from '../../src/sheets/cell-text.js';

const TABLES: CellTables = {
  sharedStrings: ['Gent', '  Kerkstraat '],
  dateStyles: [false, true],
  date1904: false,
};
const text = (type: string, value: string | undefined, style = 0, formula = false) =>
  xmlCellText(type, value, style, formula, TABLES);

describe('a workbook cell as the text Excel shows', () => {
  it.each<[string, string | undefined, string]>([
    ['n', undefined, ''],
    ['n', '', ''],
    ['s', '0', 'Gent'],
    ['s', '1', '  Kerkstraat '],
    ['inlineStr', '=not a formula', '=not a formula'],
    ['str', 'Gent', 'Gent'],
    ['n', '1398', '1398'],
    ['n', '1398.0', '1398'],
    ['n', '-0', '0'],
    ['n', '-12', '-12'],
    ['n', '12.5', '12.5'],
    ['n', '0.30000000000000004', '0.3'],
    ['n', '0.33333333333333331', '0.333333333333333'],
    ['n', '123456789012345', '123456789012345'],
    ['n', '1E+21', '1e+21'],
    ['b', '1', 'TRUE'],
    ['b', '0', 'FALSE'],
    ['d', '2026-12-01', '2026-12-01'],
    ['d', '2026-12-01T14:30:05', '2026-12-01 14:30:05'],
    ['d', '2026-12-01T11:59:59.999', '2026-12-01 12:00:00'],
    ['d', '2026-12-01T23:59:59.600Z', '2026-12-02'],
  ])('t="%s" <v>%s</v> → %j', (type, value, shown) => {
    expect(text(type, value)).toBe(shown);
  });

  it.each<[string, string | undefined, boolean, string]>([
    ['e', '#N/A', false, '#N/A'],
    ['e', '#DIV/0!', false, '#DIV/0!'],
    ['n', undefined, true, 'a formula without a saved result'],
    ['str', undefined, true, 'a formula without a saved result'],
    ['s', '7', false, "a text missing from the workbook's table of texts"],
    ['n', 'abc', false, 'a number that cannot be read ("abc")'],
    ['b', 'yes', false, 'a true/false value that cannot be read ("yes")'],
    ['d', 'soon', false, 'a date that cannot be read ("soon")'],
  ])('t="%s" <v>%s</v> shows an error', (type, value, formula, shows) => {
    const shown = text(type, value, 0, formula);
    expect(shown).toBeInstanceOf(CellError);
    expect((shown as CellError).shows).toBe(shows);
  });

  it('reads a number in a date style (a formula’s result too) as a date, in either date system', () => {
    expect(text('n', '46357', 1)).toBe('2026-12-01');
    expect(text('n', '46357.5', 1, true)).toBe('2026-12-01 12:00:00');
    expect(text('n', '46357', 0)).toBe('46357');
    expect(text('n', '46357', 9)).toBe('46357');
    expect(xmlCellText('n', '44895', 1, false, { ...TABLES, date1904: true })).toBe('2026-12-01');
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
    expect(serialText(2958465)).toBe('9999-12-31');
    for (const outside of [-1, 2958466, Number.NaN])
      expect(serialText(outside)).toBeInstanceOf(CellError);
    expect(dateText(new Date(Date.UTC(2000, 1, 29, 0, 0, 0, 400)))).toBe('2000-02-29');
    expect(numberText(2.5)).toBe('2.5');
  });
});
