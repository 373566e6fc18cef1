/**
 * A sheet's bytes have one owner: an import reads the user's file once (its private copy taken
 * and hashed), parses that copy once at intake (rows counted, what the report echoes of each row
 * kept), once more for the rows' jobs, and once for failed/ when some rows need it. Nothing opens
 * it to hash it again.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { countSheetReads, type SheetReads } from '../helpers/sheet-reads.js';
import { COLUMNS, sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { writeWorkbook } from '../helpers/workbooks.js';

const open: TestPipeline[] = [];
let reads: SheetReads | undefined;
afterEach(async () => {
  reads?.stop();
  reads = undefined;
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** Three valid rows and two without a street (invalid: failed/ is written for them). */
const ROWS = [1, 2, 3, 4, 5].map((n) => sheetRow(n, n > 3 ? { address1: '' } : {}));

/** Counts the reads of `path` and of its private copy (not what was written beside it). */
function countReadsOf(t: TestPipeline, path: string): SheetReads {
  const copies = t.ctx.settings.sheetsDir;
  const copy = (file: string) => file.startsWith(`${copies}/`) && basename(file) === basename(path);
  return countSheetReads((file) => file === path || copy(file));
}

async function reportLines(t: TestPipeline, sheetId: string): Promise<string[]> {
  const record = await t.ctx.store.get(sheetId);
  const text = await readFile(join(record?.reportDir ?? '', 'report.csv'), 'utf8');
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
}

describe('reads of a sheet on one import', () => {
  it('a CSV: the file once, its copy once at intake, once for its rows, once for failed/', async () => {
    const t = await testPipeline();
    open.push(t);
    const path = await writeCsvSheet(await tempDir('reads-csv-'), 'orders.csv', ROWS);
    reads = countReadsOf(t, path);
    const progress = await t.importSheet(path);
    const { opens } = reads;
    reads.stop();
    expect(progress.counts).toMatchObject({ created: 3, invalid: 2 });
    expect(opens.get(path)).toBe(1);
    const total = [...opens.values()].reduce((a, b) => a + b, 0);
    expect({ total, opens: Object.fromEntries(opens) }).toMatchObject({ total: 4 });
    // What the report echoes of each row is still there, from the intake's pass.
    const lines = await reportLines(t, progress.sheetId);
    expect(lines[1]).toContain('Kerkstraat 1, 9000 Gent');
    expect(lines[1]).toContain('Contact 1');
  });

  it('a workbook: the file once, never hashed again; a reader thread per pass', async () => {
    const t = await testPipeline();
    open.push(t);
    const dir = await tempDir('reads-xlsx-');
    const path = await writeWorkbook(join(dir, 'orders.xlsx'), [
      {
        name: 'Orders',
        rows: [[...COLUMNS], ...ROWS.map((row) => COLUMNS.map((c) => row[c] ?? ''))],
      },
    ]);
    reads = countReadsOf(t, path);
    const progress = await t.importSheet(path);
    const { opens, workers } = reads;
    reads.stop();
    expect(progress.counts).toMatchObject({ created: 3, invalid: 2 });
    // This thread reads the workbook only to take its copy: its zip is read by the reader threads.
    expect(Object.fromEntries(opens)).toEqual({ [path]: 1 });
    expect(workers).toBeLessThanOrEqual(3);
    expect(dirname(path)).toBe(dir);
  });
});
