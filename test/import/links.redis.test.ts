import { createHash } from 'node:crypto';
import { link, readFile, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type RowJobData, rowJobSchema } from '../../src/rows/row-data.js';
import { runRowJob } from '../../src/rows/row-job.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { put, tempDir } from '../helpers/files.js';
import { leaksIn, outsideFiles, uploadedLeaks } from '../helpers/outside.js';
import {
  recordTestSheet,
  type TestPipeline,
  testPipeline,
  waitForReport,
} from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { startWorkers } from '../../src/workers/start.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function pipelineFor(options: Parameters<typeof testPipeline>[0] = {}) {
  const t = await testPipeline(options);
  open.push(t);
  return t;
}

async function reportLines(reportDir: string): Promise<string[]> {
  return (await readFile(join(reportDir, 'report.csv'), 'utf8')).trim().split('\r\n').slice(1);
}

describe('a sheet whose attachments are links', () => {
  it('refuses every link, sends and copies no outside byte, and bundles only the files that passed', async () => {
    const outside = await outsideFiles();
    const root = await tempDir('links-sheet-');
    const dir = join(root, 'sheet');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    await symlink(outside.file, join(dir, 'docs', 'passwd.pdf'));
    await symlink(outside.folder, join(dir, 'linkdir'));
    await symlink(join(dir, 'docs', 'plan.pdf'), join(dir, 'docs', 'inside-link.pdf'));
    await link(outside.file, join(dir, 'docs', 'hard.pdf'));
    // A `failed/` folder beside the sheet's own: `../failed/other.txt` is outside it.
    await put(root, 'failed/other.txt', `${outside.marker} beside`);
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { files: 'docs/passwd.pdf' }),
      sheetRow(3, { files: 'linkdir/inner.pdf' }),
      sheetRow(4, { files: 'docs/inside-link.pdf' }),
      sheetRow(5, { files: '../failed/other.txt' }),
      sheetRow(6, { city: '', files: 'docs/plan.pdf|docs/passwd.pdf|linkdir/inner.pdf' }),
      sheetRow(7, { files: 'docs/hard.pdf' }),
    ]);

    const t = await pipelineFor();
    const progress = await t.importSheet(sheet);
    expect(progress.counts).toMatchObject({ created: 1, invalid: 6 });
    const lines = await reportLines(progress.reportDir ?? '');
    for (const row of [2, 3, 4]) expect(lines[row - 1]).toMatch(/a symbolic link/);
    expect(lines[4]).toMatch(/points outside the sheet's folder/);
    expect(lines[6]).toMatch(/docs\/hard\.pdf"+ is a hard link .*copy the file into the folder/);

    expect(await uploadedLeaks(t.sandbox.api, outside)).toEqual([]);
    expect(await leaksIn(progress.reportDir ?? '', outside.marker)).toEqual({
      files: [],
      links: [],
    });
    const bundle = join(progress.reportDir ?? '', 'failed');
    expect(await readFile(join(bundle, 'docs', 'plan.pdf'), 'utf8')).toBe('%PDF plan');
  });
});

describe('an attachment swapped for a link (symbolic or hard) after validation, before its upload', () => {
  it('is not sent: the row fails with its order id, and no outside byte is uploaded or bundled', async () => {
    const outside = await outsideFiles();
    const dir = await tempDir('swap-sheet-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    await put(dir, 'docs/sub/inner.pdf', '%PDF inner, inside');
    await put(dir, 'docs/deed.pdf', '%PDF deed');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { files: 'docs/sub/inner.pdf' }),
      sheetRow(3, { files: 'docs/deed.pdf' }),
    ]);
    const t = await pipelineFor({ workers: false });
    // The sheet job by hand (validation, row jobs queued); no worker runs the rows yet.
    await recordTestSheet(
      t.ctx.store,
      'swap',
      sheet,
      t.ctx.settings.sheetsDir,
      t.config.connection.id,
    );
    await runSheetJob(t.ctx, 'swap');
    expect(await t.ctx.queues.rows.getJobCountByTypes('waiting', 'prioritized')).toBe(3);

    // Swapped: the file for a link to an outside file, a folder on the path for an outside folder.
    await rm(join(dir, 'docs', 'plan.pdf'));
    await symlink(outside.file, join(dir, 'docs', 'plan.pdf'));
    await rename(join(dir, 'docs', 'sub'), join(dir, 'docs', 'sub-was'));
    await symlink(outside.folder, join(dir, 'docs', 'sub'));
    await rm(join(dir, 'docs', 'deed.pdf'));
    await link(outside.file, join(dir, 'docs', 'deed.pdf'));

    await startWorkers(t.ctx);
    const progress = await waitForReport(t.ctx, 'swap');
    expect(progress.counts).toMatchObject({ failed: 3 });
    const lines = await reportLines(progress.reportDir ?? '');
    // (CSV doubles the quotes around the file's name.)
    expect(lines[0]).toMatch(/^1;2;R-1;failed;\d+;.*docs\/plan\.pdf"+ is a symbolic link/);
    expect(lines[1]).toMatch(
      /^2;3;R-2;failed;\d+;.*docs\/sub\/inner\.pdf"+ goes through docs\/sub, a symbolic link/,
    );
    expect(lines[2]).toMatch(/^3;4;R-3;failed;\d+;.*docs\/deed\.pdf"+ is a hard link/);
    const orders = await t.sandbox.api.listOrders();
    expect(orders).toHaveLength(3);
    expect(orders.flatMap((o) => o.files)).toEqual([]);
    expect(await uploadedLeaks(t.sandbox.api, outside)).toEqual([]);
    expect(await leaksIn(progress.reportDir ?? '', outside.marker)).toEqual({
      files: [],
      links: [],
    });
  });
});

describe("a row job's data", () => {
  it("is not trusted for where a file is: the file is found again in the sheet's folder", async () => {
    const outside = await outsideFiles();
    const dir = await tempDir('job-data-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1, { files: 'docs/plan.pdf' })]);
    const t = await pipelineFor({ workers: false });
    await recordTestSheet(
      t.ctx.store,
      'forged',
      sheet,
      t.ctx.settings.sheetsDir,
      t.config.connection.id,
    );
    const data: RowJobData = {
      connectionId: t.config.connection.id,
      sheetId: 'forged',
      row: 1,
      line: 2,
      key: null,
      order: validOrder(),
      // As an older job, or someone with access to Redis, might have it.
      attachments: [{ path: 'docs/plan.pdf', absolute: outside.file, bytes: 9 }],
    };
    await runRowJob(t.ctx, {
      data: rowJobSchema.parse(data),
      attemptsStarted: 1,
      attemptsMade: 0,
      maxAttempts: 3,
    });
    const outcomes = await t.ctx.store.outcomes('forged', [1]);
    expect(outcomes.map((o) => o?.status)).toEqual(['created']);
    const files = (await t.sandbox.api.listOrders()).flatMap((o) => o.files);
    expect(files.map((f) => [f.file_name, f.sha256])).toEqual([
      ['plan.pdf', createHash('sha256').update('%PDF plan').digest('hex')],
    ]);
    expect(dirname(sheet)).toBe(dir);
  });
});
