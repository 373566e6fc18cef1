import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import {
  duplicateOutcome,
  type EarlierRow,
  readEarlierReport,
} from '../../src/report/earlier-report.js';
import { put, tempDir } from '../helpers/files.js';

const english = wordsFor('en');

describe('duplicateOutcome', () => {
  it('gives the order made then', () => {
    expect(duplicateOutcome(english, 'S1', { status: 'created', orderId: 7 })).toEqual({
      status: 'duplicate',
      attempts: 0,
      orderId: 7,
      error:
        "this sheet's content was imported before (sheet S1); order 7 was made for this row then.",
    });
  });

  it.each<[EarlierRow | undefined, RegExp]>([
    [{ status: 'invalid' }, /no order was made for this row then \(it was invalid\)/],
    [{ status: 'failed' }, /no order was made for this row then \(it failed\)/],
    [{ status: 'failed', orderId: 9 }, /order 9 was made then but not all its documents/],
    [{ status: 'needs-review' }, /outcome was unknown there \(needs-review\)/],
    [undefined, /no order is known to have been made for this row\.$/],
  ])('says what became of a row that was %o', (row, said) => {
    const outcome = duplicateOutcome(english, 'S1', row);
    expect(outcome.status).toBe('duplicate');
    expect(outcome.error).toMatch(said);
    expect(outcome.orderId).toBe(row?.orderId);
  });
});

describe('readEarlierReport', () => {
  it('reads each row status and order id from report.csv, in its delimiter, past the BOM', async () => {
    const dir = await tempDir('earlier-');
    await put(
      dir,
      'report.csv',
      '\uFEFFrow;line;reference;status;order_id;inspection_ids;file_ids;attempts;error\r\n' +
        '1;2;R-1;created;11;;;1;\r\n' +
        '2;3;R-2;invalid;;;;0;"city: required; fix it"\r\n' +
        '3;4;R-3;failed;12;;;8;upload\r\n',
    );
    const rows = await readEarlierReport({ reportDir: dir, delimiter: ';' });
    expect([...(rows ?? new Map())]).toEqual([
      [1, { status: 'created', orderId: 11 }],
      [2, { status: 'invalid' }],
      [3, { status: 'failed', orderId: 12 }],
    ]);
  });

  it('gives nothing when the report is gone or was never written', async () => {
    const dir = await tempDir('earlier-');
    expect(await readEarlierReport({ reportDir: dir })).toBeUndefined();
    expect(await readEarlierReport({})).toBeUndefined();
    expect(await readEarlierReport(undefined)).toBeUndefined();
  });
});
