/**
 * The sheet imported is the sheet hashed: a sheet saved over while it is imported never gives
 * orders of two versions, and its summary's sha256 is of the bytes whose rows were imported.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { runSheetJob } from '../../src/split/sheet-job.js';
import { startWorkers } from '../../src/workers/start.js';
import type { Summary } from '../../src/report/report.js';
import { tempDir } from '../helpers/files.js';
import {
  withRowsQueue,
  type TestPipeline,
  testPipeline,
  waitForReport,
} from '../helpers/pipeline.js';
import { type SheetRow, sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { submitSheet } from '../../src/intake/submit.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Two versions of one sheet: the same rows, told apart by their references and addresses. */
function versions(count: number): { old: SheetRow[]; fresh: SheetRow[] } {
  const rows = (street: string, prefix: string) =>
    Array.from({ length: count }, (_, i) =>
      sheetRow(i + 1, {
        reference: `${prefix}-${i + 1}`,
        address1: street,
        contact_name: `${prefix} contact ${i + 1}`,
      }),
    );
  return { old: rows('Oudstraat', 'OLD'), fresh: rows('Nieuwstraat', 'NEW') };
}

async function readReport(dir: string): Promise<{ summary: Summary; lines: string[][] }> {
  const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Summary;
  const text = (await readIfThere(join(dir, 'report.csv'))).replace(/^\uFEFF/, '');
  const lines = text
    .trim()
    .split('\r\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(';'));
  return { summary, lines };
}

/** A sheet refused as a whole has no row, and no report.csv. */
async function readIfThere(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

describe('a sheet rewritten in place while its rows are enqueued', () => {
  it('imports rows of the version hashed only, refuses the rest and says so', async () => {
    const t = await testPipeline();
    open.push(t);
    // The sheet job is run by hand below, so that the rewrite falls between two of its chunks.
    await t.ctx.queues.sheets.pause();
    const dir = await tempDir('rewritten-');
    const { old, fresh } = versions(4000);
    const path = await writeCsvSheet(dir, 'orders.csv', old);
    const oldBytes = await readFile(path);
    const newBytes = await readFile(await writeCsvSheet(dir, 'next.csv', fresh));
    const { sheetId } = await submitSheet(t.ctx, path);

    let rewritten = false;
    const ctx = withRowsQueue(t.ctx, {
      addBulk: async (jobs) => {
        const added = await t.ctx.queues.rows.addBulk(jobs);
        if (!rewritten) {
          // Once the first row job has run, the user saves the new version over the old one.
          while ((await t.ctx.store.finalCount(sheetId)) === 0) {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          writeFileSync(path, newBytes);
          rewritten = true;
        }
        return added;
      },
    });
    await runSheetJob(ctx, sheetId);
    expect(rewritten).toBe(true);
    const progress = await waitForReport(t.ctx, sheetId, 60_000);

    const orders = await t.sandbox.api.listOrders();
    expect(orders.length).toBeGreaterThan(0);
    const streets = new Set(orders.map((o) => o.address1));
    expect([...streets]).toEqual(['Oudstraat']);
    expect(orders.every((o) => o.contact_name.startsWith('OLD contact '))).toBe(true);

    const { summary, lines } = await readReport(progress.reportDir ?? '');
    expect(summary.sha256).toBe(sha256(oldBytes));
    expect(summary.total).toBe(4000);
    expect(summary.created).toBe(orders.length);
    expect(summary.created + summary.failed).toBe(4000);
    expect(summary.failed).toBeGreaterThan(0);
    expect(summary.warnings).toContainEqual(
      expect.stringMatching(/changed while it was imported.*not imported/),
    );
    // Every row of the old version has exactly one line, with its own reference.
    expect(lines.map((l) => l[0])).toEqual(Array.from({ length: 4000 }, (_, i) => String(i + 1)));
    expect(lines.every((l, i) => l[2] === `OLD-${i + 1}`)).toBe(true);
    const refused = lines.filter((l) => l[3] === 'failed');
    expect(refused).toHaveLength(summary.failed);
    expect(
      refused.every((l) =>
        /^not imported: the sheet changed while it was imported/.test(l[8] ?? ''),
      ),
    ).toBe(true);
    // The rows refused come after the rows imported, not mixed among them.
    const firstRefused = Number(refused[0]?.[0]);
    expect(lines.slice(0, firstRefused - 1).every((l) => l[3] === 'created')).toBe(true);
    // The private copy the rows were read from has served once the report is written.
    expect(await readdir(t.ctx.settings.sheetsDir)).toEqual([]);
  });
});

describe('a sheet rewritten between its queueing and its first read', () => {
  it('is refused as a whole, with the hash it was queued with', async () => {
    const t = await testPipeline();
    open.push(t);
    await t.ctx.queues.sheets.pause();
    const dir = await tempDir('requeue-');
    const { old, fresh } = versions(20);
    const path = await writeCsvSheet(dir, 'orders.csv', old);
    const oldBytes = await readFile(path);
    const { sheetId } = await submitSheet(t.ctx, path);
    await writeCsvSheet(dir, 'orders.csv', fresh);
    await t.ctx.queues.sheets.resume();
    const progress = await waitForReport(t.ctx, sheetId);

    expect(await t.sandbox.api.listOrders()).toEqual([]);
    const { summary, lines } = await readReport(progress.reportDir ?? '');
    expect(summary.sha256).toBe(sha256(oldBytes));
    expect(summary.total).toBe(0);
    expect(lines).toEqual([]);
    expect(summary.error).toMatch(/changed after it was queued/);
    // Its content is free again: the new version queued now is imported, not called a duplicate.
    const again = await t.importSheet(path);
    expect(again.counts.created).toBe(20);
  });
});

describe('the report of a sheet saved over after all its rows were read', () => {
  it('writes failed/ from the bytes imported, and says the sheet has changed since', async () => {
    const t = await testPipeline({ sandbox: { faults: { latencyMs: 200 } } });
    open.push(t);
    const dir = await tempDir('after-read-');
    const path = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1),
      sheetRow(2, { city: '' }),
      sheetRow(3),
    ]);
    const oldBytes = await readFile(path);
    const { sheetId } = await submitSheet(t.ctx, path);
    while ((await t.ctx.store.get(sheetId))?.total === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await writeFile(path, 'reference;city\nR-9;Gent\n');
    const progress = await waitForReport(t.ctx, sheetId);
    const reportDir = progress.reportDir ?? '';

    const { summary } = await readReport(reportDir);
    expect(summary.sha256).toBe(sha256(oldBytes));
    expect(summary.warnings).toContainEqual(
      expect.stringMatching(/the sheet has changed since it was imported/),
    );
    expect(await readdir(join(reportDir, 'failed'))).toEqual(['orders.csv']);
    const failed = (await readFile(join(reportDir, 'failed', 'orders.csv'), 'utf8')).split('\r\n');
    expect(failed[1]).toMatch(/^R-2;Andere;Kerkstraat;2;;9000;/);
  });
});

describe('the same sheet given again while it is imported', () => {
  it('resumes that import and keeps no second copy', async () => {
    const t = await testPipeline();
    open.push(t);
    await t.ctx.queues.sheets.pause();
    const path = await writeCsvSheet(await tempDir('twice-'), 'orders.csv', [sheetRow(1)]);
    const first = await submitSheet(t.ctx, path);
    const again = await submitSheet(t.ctx, path);
    expect(again).toEqual({ sheetId: first.sheetId, resumed: true });
    expect(await readdir(t.ctx.settings.sheetsDir)).toEqual([first.sheetId]);
    await t.ctx.queues.sheets.resume();
    expect((await waitForReport(t.ctx, first.sheetId)).counts.created).toBe(1);
  });
});

describe('a sheet job stopped after queueing rows, before its checkpoint, then the sheet saved over', () => {
  it('reports those rows as they end and keeps the content: the same bytes again are duplicates', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const dir = await tempDir('killed-before-checkpoint-');
    const { old, fresh } = versions(6);
    const path = await writeCsvSheet(dir, 'orders.csv', old);
    const oldBytes = await readFile(path);
    const { sheetId } = await submitSheet(t.ctx, path);
    // The rows are queued, then the process dies before the checkpoint is written.
    let queued = 0;
    const dying = withRowsQueue(t.ctx, {
      addBulk: async (jobs) => {
        await t.ctx.queues.rows.addBulk(jobs);
        queued = jobs.length;
        throw new Error('the process died');
      },
    });
    await expect(runSheetJob(dying, sheetId)).rejects.toThrow('the process died');
    expect(queued).toBeGreaterThan(0);
    expect((await t.ctx.store.get(sheetId))?.checkpoint).toBe(0);
    await writeCsvSheet(dir, 'orders.csv', fresh);
    await runSheetJob(t.ctx, sheetId); // the stalled job, run again

    // Rows of it may be on their way: its content stays registered, and no report yet.
    const record = await t.ctx.store.get(sheetId);
    expect(await t.ctx.store.findBySha(`${t.ctx.connection.id}|${record?.sha256 ?? ''}`)).toBe(
      sheetId,
    );
    expect(record?.state).not.toBe('done');
    await startWorkers(t.ctx);
    const progress = await waitForReport(t.ctx, sheetId);
    const orders = await t.sandbox.api.listOrders();
    expect(orders).toHaveLength(queued);
    const { summary, lines } = await readReport(progress.reportDir ?? '');
    // The rows queued are each reported as they ended; those never queued, as not processed.
    expect(summary).toMatchObject({ total: 6, created: queued, failed: 6 - queued });
    expect(lines.map((l) => l[3])).toEqual(
      Array.from({ length: 6 }, (_, i) => (i < queued ? 'created' : 'failed')),
    );

    const copy = join(await tempDir('same-bytes-'), 'orders.csv');
    await writeFile(copy, oldBytes);
    const again = await t.importSheet(copy);
    expect(again.counts).toMatchObject({ created: 0, duplicate: 6 });
    expect(await t.sandbox.api.listOrders()).toHaveLength(queued);
  });
});
