import { describe, expect, it } from 'vitest';

import { fixedRowMark, openCounts, shortId } from '../../src/dashboard/fix-html.js';
import { wordsFor } from '../../src/language/words.js';

const words = wordsFor('en');
const counts = { created: 1, invalid: 3, failed: 2, 'needs-review': 0, duplicate: 0 };

describe("the fix loop's words on the pages", () => {
  it("tell a sheet by its id's end", () => {
    expect(shortId('20261126-101502-3fa9c1')).toBe('3fa9c1');
    expect(shortId('s1')).toBe('s1');
    expect(shortId('odd-')).toBe('odd-');
  });

  it('count open the problems no later sheet fixed, never below none', () => {
    expect(openCounts({ counts })).toEqual({ invalid: 3, failed: 2 });
    const fixedLater = { invalid: 2, failed: 5, by: [] };
    expect(openCounts({ counts, fixedLater })).toEqual({ invalid: 1, failed: 0 });
  });

  it('mark a row fixed later with the sheet that fixed it, its name made safe', () => {
    const sheet = {
      fixedRows: new Map([[7, 'F1']]),
      fixedLater: { invalid: 1, failed: 0, by: [{ sheetId: 'F1', name: '<b>x.csv' }] },
    };
    const mark = fixedRowMark(words, sheet, 7);
    expect(mark.attribute).toBe(' data-fixed-by="F1"');
    expect(mark.note).toContain('fixed later in <a href="/sheets/F1">&lt;b&gt;x.csv (F1)</a>');
    const taken = { sheetId: 'F1', name: 'x.csv', startedAt: '2026-11-27T10:00:00.000Z' };
    const named = fixedRowMark(
      words,
      { ...sheet, fixedLater: { ...sheet.fixedLater, by: [taken] } },
      7,
    );
    // In the row's narrow first cell: its name and short id; the page's facts say when.
    expect(named.note).toContain('fixed later in <a href="/sheets/F1">x.csv (F1)</a>');
    expect(fixedRowMark(words, sheet, 8)).toEqual({ attribute: '', note: '' });
  });
});
