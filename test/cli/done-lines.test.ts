import { describe, expect, it } from 'vitest';

import { doneLine } from '../../src/cli/commands/done-lines.js';
import type { SheetProgress } from '../../src/store/progress.js';

const sheet = (over: Partial<SheetProgress>): SheetProgress => ({
  sheetId: 'S1',
  name: 'orders.csv',
  startedAt: '2026-11-26T10:00:00.000Z',
  state: 'done',
  final: 0,
  counts: { created: 0, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
  ...over,
});
const show = (path: string) => path.replace('/data/', '');

describe('doneLine', () => {
  it('names the sheet, the statuses that happened and where the report is', () => {
    const counts = { created: 4, invalid: 1, failed: 0, 'needs-review': 2, duplicate: 0 };
    expect(doneLine(sheet({ counts, reportDir: '/data/reports/orders-S1' }), show)).toBe(
      'Done: orders.csv (sheet S1): 4 created, 1 invalid, 2 needs-review. Report: reports/orders-S1/',
    );
  });

  it('says "no rows" for an empty sheet', () => {
    expect(doneLine(sheet({ reportDir: '/data/r' }), show)).toBe(
      'Done: orders.csv (sheet S1): no rows. Report: r/',
    );
  });

  it('says why a sheet could not be read', () => {
    expect(doneLine(sheet({ error: 'line 2: a quoted cell is never closed' }), show)).toBe(
      'Done: orders.csv (sheet S1): it cannot be read: line 2: a quoted cell is never closed',
    );
  });

  it('writes out control characters of the sheet’s name and error', () => {
    const line = doneLine(
      sheet({ name: 'x\u001b]0;owned\u0007.csv', error: 'line 2: "\u001b[2J" is not a product' }),
      show,
    );
    expect(line).toBe(
      'Done: x\\u001b]0;owned\\u0007.csv (sheet S1): it cannot be read: line 2: "\\u001b[2J" is not a product',
    );
  });
});
