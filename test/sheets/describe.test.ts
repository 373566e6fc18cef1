import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { describeSheet } from '../../src/sheets/describe.js';
import type { SheetInfo } from '../../src/sheets/types.js';

const csv = { format: 'csv', delimiter: ';', encoding: 'windows-1252' } as SheetInfo;
const tabs = { format: 'csv', delimiter: '\t', encoding: 'utf-8' } as SheetInfo;
const workbook = { format: 'xlsx', worksheet: 'Opdrachten', encoding: 'utf-8' } as SheetInfo;

describe('what kind of sheet validate says a file is', () => {
  it('in English, as before', () => {
    const en = wordsFor('en');
    expect(describeSheet(csv, en)).toBe('CSV, ";"-separated, windows-1252');
    expect(describeSheet(tabs, en)).toBe('CSV, tab-separated, utf-8');
    expect(describeSheet(workbook, en)).toBe('Excel workbook, worksheet "Opdrachten"');
  });

  it('in Dutch and French', () => {
    expect(describeSheet(csv, wordsFor('nl'))).toBe('CSV, gescheiden door ";", windows-1252');
    expect(describeSheet(tabs, wordsFor('fr'))).toBe('CSV, séparateur tabulation, utf-8');
    expect(describeSheet(workbook, wordsFor('nl'))).toBe('Excel-werkmap, blad “Opdrachten”');
    expect(describeSheet(workbook, wordsFor('fr'))).toBe(
      'classeur Excel, feuille «\u202fOpdrachten\u202f»',
    );
  });
});
