import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { shown } from '../../src/dashboard/html.js';
import { PaceMeter } from '../../src/dashboard/rate.js';
import {
  importerCsvRecords,
  MAX_REPORT_LINE,
  openReportRows,
} from '../../src/dashboard/report-csv.js';
import { folded, SEARCH_LIMITS, searchReports } from '../../src/dashboard/search.js';
import { PAGE_SIZE, reportedRows } from '../../src/dashboard/sheet-rows.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';
import { HEADER, reportOf, sheetOf } from '../helpers/reports.js';

describe("a reported sheet's rows", () => {
  it('are read a page at a time from report.csv, by status, whatever its delimiter', async () => {
    for (const delimiter of [';', ',']) {
      const dir = await reportOf(250, delimiter);
      const all = await reportedRows(sheetOf(dir, 250), { status: undefined, page: 3 });
      expect(all?.matching).toBe(250);
      expect(all?.rows.map((r) => r.row)).toEqual(Array.from({ length: 50 }, (_, i) => 201 + i));
      const invalid = await reportedRows(sheetOf(dir, 250), { status: 'invalid', page: 1 });
      expect(invalid?.matching).toBe(83);
      expect(invalid?.rows).toHaveLength(83);
      expect(invalid?.rows[0]).toEqual({
        row: 3,
        line: '4',
        reference: 'REF-3',
        status: 'invalid',
        orderId: '',
        fileIds: '',
        error: 'city: city is required; fix it, then drop it back',
        address: 'Kerkstraat 3, 9000 Gent',
        contactName: 'Contact 3',
        sourceRow: '',
        files: '',
      });
    }
  });

  it('read a report written before the columns for people, without them', async () => {
    const dir = tempDir('dashboard-old-');
    const path = await dir;
    await put(
      path,
      'report.csv',
      '\uFEFFrow,line,reference,status,order_id,inspection_ids,file_ids,attempts,error\r\n1,2,R-1,created,7,8,,1,\r\n',
    );
    const page = await reportedRows(sheetOf(path, 1), { status: undefined, page: 1 });
    expect(page?.rows.map((r) => [r.reference, r.orderId, r.address])).toEqual([['R-1', '7', '']]);
  });

  it('are not read through a link, nor from a folder without report.csv', async () => {
    const real = await reportOf(3);
    const dir = await tempDir('dashboard-link-');
    await symlink(join(real, 'report.csv'), join(dir, 'report.csv'));
    expect(await openReportRows(dir)).toBeUndefined();
    expect(await openReportRows(join(dir, 'nope'))).toBeUndefined();
    const linkedDir = join(await tempDir('dashboard-linked-dir-'), 'report');
    await symlink(real, linkedDir);
    expect(await openReportRows(linkedDir)).toBeUndefined();
  });
});

describe('a report.csv changed on disk', () => {
  /** A report whose second row opens a quoted cell that never ends: megabytes of one "line". */
  async function endlessReport(): Promise<string> {
    const dir = await tempDir('dashboard-endless-');
    const head = `\uFEFF${HEADER}\r\n1;2;R-1;created;7;;;1;;a;b;\r\n2;3;R-2;invalid;;;;0;"`;
    await put(dir, 'report.csv', `${head}${'x'.repeat(40_000_000)}\r\n`);
    return dir;
  }

  it('with a line longer than any report has is refused early, in plain words', async () => {
    const dir = await endlessReport();
    const reading = reportedRows(sheetOf(dir, 2), { status: 'invalid', page: 1 });
    await expect(reading).rejects.toThrow(/report\.csv .*line 3 .*longer than/);
  }, 30_000);

  it('is refused once the limit is passed, not read to its end as one cell', async () => {
    // A line that never ends: only a reader that stops at its limit gets to the refusal.
    let served = 0;
    const endless = new Readable({
      read() {
        const chunk = served === 0 ? Buffer.from(`${HEADER}\r\n1;"`) : Buffer.alloc(65_536, 'x');
        served += chunk.length;
        this.push(chunk);
      },
    });
    const records = await importerCsvRecords(endless, MAX_REPORT_LINE);
    const reading = (async () => {
      let read = 0;
      for await (const _ of records ?? []) read += 1;
      return read;
    })();
    await expect(reading).rejects.toThrow(/max record size/i);
    expect(served).toBeLessThan(4 * MAX_REPORT_LINE);
  });

  it('with more lines than its sheet had rows is refused at the first of them, not read on', async () => {
    const dir = await tempDir('dashboard-past-rows-');
    const junk = '1;2;R;no-such-status\r\n'.repeat(200_000);
    await put(dir, 'report.csv', `\uFEFF${HEADER}\r\n1;2;R-1;invalid;;;;0;;a;b;\r\n${junk}`);
    // Its one row is on the page; the page asks for more, which only the lines past it could be.
    const page = reportedRows(sheetOf(dir, 1), { status: 'invalid', page: 1 });
    await expect(page).rejects.toThrow(
      /report\.csv has more records than its sheet has rows \(1; record 3,/,
    );
    const found = await searchReports([sheetOf(dir, 1, 'changed')], 'r-1');
    expect([found.unreadable, found.stopped]).toEqual([['changed.csv'], undefined]);
  });

  it('with many lines that are no rows keeps the search within its time', async () => {
    const dir = await tempDir('dashboard-no-rows-');
    // Lines its sheet counted as rows, changed on disk into no rows (a status no row has) and
    // shorter than its header: the parser makes an error of each such line (and drops it), which
    // costs some 8 times a row; at a 200 ms limit these were 200,000 lines, over 30 s when busy.
    const lines = 100_000;
    const junk = '1;2;R;no-such-status\r\n'.repeat(lines);
    await put(dir, 'report.csv', `\uFEFF${HEADER}\r\n${junk}`);
    const limits = { sheets: 50, rows: 1_000_000, ms: 10, hits: 100 };
    // A clock a millisecond later at each look: the search must look at it as it reads the
    // lines that are no rows (every thousand), and stop once 10 ms have passed on it.
    let looks = 0;
    const clock = () => (looks += 1);
    const result = await searchReports([sheetOf(dir, lines)], 'anything', limits, clock);
    expect([result.stopped, result.unreadable]).toEqual([{ why: 'time', limit: 0.01 }, []]);
    // Read to its end, the report would have been 100 looks.
    expect(looks).toBeLessThan(20);
  });

  it('leaves the search of the other reports going, and is named', async () => {
    const good = await reportOf(10);
    const sheets = [sheetOf(await endlessReport(), 2, 'broken'), sheetOf(good, 10, 'fine')];
    const result = await searchReports(sheets, 'ref-7');
    expect(result.hits.map((h) => [h.sheetId, h.row.row])).toEqual([['fine', 7]]);
    expect(result.sheets).toBe(2);
    expect(result.unreadable).toEqual(['broken.csv']);
  }, 30_000);
});

describe('the search', () => {
  it('finds references, addresses and contacts in any case, newest sheet first', async () => {
    const a = await reportOf(10);
    const b = await reportOf(10);
    const sheets = [sheetOf(b, 10, 'newer'), sheetOf(a, 10, 'older')];
    const byRef = await searchReports(sheets, 'ref-7');
    expect(byRef.hits.map((h) => [h.sheetId, h.row.row])).toEqual([
      ['newer', 7],
      ['older', 7],
    ]);
    expect([byRef.sheets, byRef.rows, byRef.stopped]).toEqual([2, 20, undefined]);
    expect((await searchReports(sheets, 'KERKSTRAAT 10,')).hits).toHaveLength(2);
    expect((await searchReports(sheets, 'contact 1')).hits).toHaveLength(4);
  });

  it('finds a name typed without its accents, and with them', () => {
    expect(folded('Hélène Vercruyssen')).toContain(folded('helene'));
    expect(folded('Zoë Maes')).toContain(folded('ZOE'));
    expect(folded('François')).toBe(folded('FRANCOIS'));
    expect(folded('Ｋｅｒｋｓｔｒａａｔ')).toBe('kerkstraat');
  });

  it('stops at its limits, and says which', async () => {
    const dirs = await Promise.all([1, 2, 3].map(() => reportOf(50)));
    const sheets = dirs.map((dir, i) => sheetOf(dir, 50, `s${i}`));
    const limits = { sheets: 2, rows: 1_000_000, ms: 60_000, hits: 1000 };
    const few = await searchReports(sheets, 'ref-', limits);
    expect([few.sheets, few.rows, few.stopped]).toEqual([2, 100, { why: 'sheets', limit: 2 }]);
    const short = await searchReports(sheets, 'ref-', { ...limits, sheets: 50, rows: 70 });
    expect([short.rows, short.stopped]).toEqual([70, { why: 'rows', limit: 70 }]);
    const hits = await searchReports(sheets, 'ref-', { ...limits, sheets: 50, hits: 5 });
    expect([hits.hits.length, hits.stopped]).toEqual([5, { why: 'hits', limit: 5 }]);
    let clock = 0;
    const slow = await searchReports(
      sheets,
      'nothing',
      { ...limits, sheets: 50, ms: 10 },
      () => (clock += 100),
    );
    expect([slow.sheets, slow.stopped]).toEqual([0, { why: 'time', limit: 0.01 }]);
  });

  it('reads a report of 100,000 rows, its last page too', async () => {
    const dir = await reportOf(100_000);
    const result = await searchReports([sheetOf(dir, 100_000)], 'contact 99999', {
      ...SEARCH_LIMITS,
      // Its speed is no test's to judge on a shared machine: every row is read here.
      ms: Number.MAX_SAFE_INTEGER,
    });
    expect(result.hits).toHaveLength(1);
    expect(result.rows).toBe(100_000);
    const last = await reportedRows(sheetOf(dir, 100_000), {
      status: undefined,
      page: 100_000 / PAGE_SIZE,
    });
    expect(last?.rows.at(-1)?.row).toBe(100_000);
  }, 30_000);
});

describe('text shown on the pages', () => {
  it('is escaped, with invisible and reversing characters as their code points', () => {
    expect(shown('<img src=x onerror=alert(1)> & "\'')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;&#39;',
    );
    expect(shown('Ann \u202Efdp.exe\u0007\u0000\u2066x\u200B')).toBe(
      'Ann &lt;U+202E&gt;fdp.exe&lt;U+0007&gt;&lt;U+0000&gt;&lt;U+2066&gt;x&lt;U+200B&gt;',
    );
    // Letters of right-to-left scripts are text like any other.
    expect(shown('شارع الملك')).toBe('شارع الملك');
  });
});

describe('the pace of a running sheet', () => {
  it('is measured over what the dashboard saw, and says the time left', () => {
    let now = Date.parse('2025-03-04T10:00:10.000Z');
    const meter = new PaceMeter(() => now);
    const running = (final: number): SheetProgress => ({
      sheetId: 'r',
      name: 'r.csv',
      startedAt: '2025-03-04T10:00:00.000Z',
      state: 'processing',
      total: 1000,
      final,
      counts: { created: final, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
    });
    // First sight: 100 rows in the 10 s since it was queued.
    expect(meter.observe([running(100)]).get('r')).toEqual({ perSecond: 10, secondsLeft: 90 });
    now += 5000;
    // Then what it did while watched: 100 rows in 5 s.
    expect(meter.observe([running(200)]).get('r')).toEqual({ perSecond: 20, secondsLeft: 40 });
    expect(meter.observe([{ ...running(1000), state: 'done' }]).get('r')).toBeUndefined();
  });
});
