/**
 * A hot-folder sheet's bytes have one owner too: the intake reads the file once to hash and scan
 * it and parses it once (its `files` cells for the attachments it waits for and takes, its rows
 * counted, what the report echoes of each row kept); then its rows' pass reads it, and failed/'s
 * when some rows need it. The list of files it names is no pass of its own.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { startWorkers } from '../../src/workers/start.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline, waitForReport } from '../helpers/pipeline.js';
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

/** Three valid rows naming a file each, and two without a street (failed/ is written for them). */
const ROWS = [1, 2, 3, 4, 5].map((n) =>
  sheetRow(n, { files: `docs/plan-${n}.pdf`, ...(n > 3 && { address1: '' }) }),
);

async function hotFolder(prefix: string) {
  const t = await testPipeline({ workers: false });
  open.push(t);
  const data = await tempDir(prefix);
  const inbox = join(data, 'inbox');
  for (const n of [1, 2, 3, 4, 5]) await put(inbox, `docs/plan-${n}.pdf`, `%PDF ${n}`);
  const intake = new Intake({
    ctx: t.ctx,
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
    logger: t.config.logger,
  });
  return { t, data, inbox, intake };
}

/** Counts the reads of a sheet named `name` wherever it lies: inbox, work folder or copies. */
function countReadsOf(folders: readonly string[], name: string): SheetReads {
  return countSheetReads(
    (file) => basename(file) === name && folders.some((f) => file.startsWith(`${f}/`)),
  );
}

const total = (opens: Map<string, number>) => [...opens.values()].reduce((a, b) => a + b, 0);

describe('reads of a sheet taken from the inbox', () => {
  it('a CSV naming files: read once and parsed once at intake, once for its rows, once for failed/', async () => {
    const { t, data, inbox, intake } = await hotFolder('hot-reads-csv-');
    const path = await writeCsvSheet(inbox, 'orders.csv', ROWS);
    reads = countReadsOf([data, t.ctx.settings.sheetsDir], 'orders.csv');
    const result = await intake.take(path);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const atIntake = Object.fromEntries(reads.opens);
    expect({ total: total(reads.opens), opens: atIntake }).toMatchObject({ total: 2 });
    // The files its cells name were taken along, waited for as before.
    const work = join(data, 'work', sheetId);
    expect(await readFile(join(work, 'docs', 'plan-2.pdf'), 'utf8')).toBe('%PDF 2');
    await startWorkers(t.ctx);
    const done = await waitForReport(t.ctx, sheetId);
    const { opens } = reads;
    reads.stop();
    expect(done.counts).toMatchObject({ created: 3, invalid: 2 });
    expect({ total: total(opens), opens: Object.fromEntries(opens) }).toMatchObject({ total: 4 });
    // What the report echoes of each row is there, from the intake's one pass.
    const record = await t.ctx.store.get(sheetId);
    const report = await readFile(join(record?.reportDir ?? '', 'report.csv'), 'utf8');
    expect(report).toContain('Kerkstraat 1, 9000 Gent');
    expect(report).toContain('Contact 1');
  });

  it('a workbook naming files: read once in this thread at intake, one reader thread', async () => {
    const { t, data, inbox, intake } = await hotFolder('hot-reads-xlsx-');
    const path = await writeWorkbook(join(inbox, 'orders.xlsx'), [
      {
        name: 'Orders',
        rows: [[...COLUMNS], ...ROWS.map((row) => COLUMNS.map((c) => row[c] ?? ''))],
      },
    ]);
    reads = countReadsOf([data, t.ctx.settings.sheetsDir], 'orders.xlsx');
    const result = await intake.take(path);
    const { opens, workers } = reads;
    reads.stop();
    expect(result.kind).toBe('queued');
    // This thread reads it only to hash it; its zip is read (and checked) by one reader thread.
    expect({ total: total(opens), workers }).toEqual({ total: 1, workers: 1 });
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const work = join(data, 'work', sheetId);
    expect(await readFile(join(work, 'docs', 'plan-3.pdf'), 'utf8')).toBe('%PDF 3');
  });
});
