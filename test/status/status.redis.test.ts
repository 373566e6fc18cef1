/**
 * The status stage (src/status/) on a context of its own, over a real Redis and the sandbox over
 * HTTP: what a run returns of the changed orders, an API that limits its rate, and the scheduled
 * refresh's fan-out (one job per sheet of its own connection, once per firing).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { queueStatusRun, refreshQueuedSheet } from '../../src/status/refresh.js';
import { reportOfSheet, type ReportedSheet } from '../../src/status/report-folder.js';
import { refreshSheetStatus } from '../../src/status/status.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let pipeline: TestPipeline;
let db: Database.Database;
beforeAll(async () => {
  const sandboxDir = await tempDir('status-stage-sandbox-');
  // A small rate limit: reading orders back must keep to it as the imports do.
  pipeline = await testPipeline({
    sandbox: { dataDir: sandboxDir, rateLimit: 4, rateWindowMs: 1000 },
  });
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
});
afterAll(async () => {
  db.close();
  await pipeline.close();
});

async function importedSheet(from: number, count: number): Promise<ReportedSheet> {
  const dir = await tempDir('status-stage-sheet-');
  const rows = Array.from({ length: count }, (_, i) => sheetRow(from + i));
  const { sheetId } = await pipeline.importSheet(
    await writeCsvSheet(dir, 'orders.csv', rows),
    60_000,
  );
  const sheet = await reportOfSheet(pipeline.reportsDir, sheetId);
  if (sheet === undefined) throw new Error(`no report of ${sheetId}`);
  return sheet;
}

describe('the status stage', () => {
  it('reads every order within the API rate limit and returns the changed ones, before and after', async () => {
    const sheet = await importedSheet(1, 10);
    const first = await refreshSheetStatus(pipeline.ctx, sheet);
    expect(first).toMatchObject({ orders: 10, unreadable: 0, changed: 0, skipped: false });
    const [line] = (await readFile(join(sheet.dir, 'status.csv'), 'utf8')).split('\r\n').slice(1);
    const orderId = Number(line?.split(';')[2]);
    db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(orderId);
    db.prepare(
      "UPDATE inspections SET date = '2026-12-24', inspector_name = 'An' WHERE order_id = ?",
    ).run(orderId);
    const second = await refreshSheetStatus(pipeline.ctx, sheet);
    expect(second.unreadable).toBe(0);
    expect(second.changedOrders).toEqual([
      {
        row: 1,
        reference: 'R-1',
        order_id: orderId,
        before: {
          order_status: 'to schedule',
          cancel_reason: '',
          inspections: [{ product_id: 'EPC', inspection_date: '', inspector_name: '' }],
        },
        after: {
          order_status: 'planned',
          cancel_reason: '',
          inspections: [{ product_id: 'EPC', inspection_date: '2026-12-24', inspector_name: 'An' }],
        },
      },
    ]);
  });

  it('fans a firing out to one job per sheet of its own connection, once however often it runs', async () => {
    const mine = await importedSheet(101, 2);
    // A report of another connection beside it: not this context's to read.
    const other = join(pipeline.reportsDir, 'theirs-sheet-of-another');
    await mkdir(other, { recursive: true });
    const summary = JSON.parse(await readFile(join(mine.dir, 'summary.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    await writeFile(
      join(other, 'summary.json'),
      JSON.stringify({
        ...summary,
        sheetId: 'sheet-of-another',
        connection: { name: 'x', id: 'ffffffffffffffff' },
      }),
    );
    await writeFile(join(other, 'report.csv'), await readFile(join(mine.dir, 'report.csv')));
    await expect(refreshQueuedSheet(pipeline.ctx, 'sheet-of-another')).rejects.toThrow(
      /read only with its own connection's token/,
    );

    const queued = await queueStatusRun(pipeline.ctx, 'repeat:status-sync:1');
    const sheets = await pipeline.ctx.queues.status.getJobs([
      'waiting',
      'active',
      'completed',
      'delayed',
      'prioritized',
    ]);
    const ids = sheets.map((job) => job.id).sort();
    expect(ids).toContain(`${mine.sheetId}.status.repeat-status-sync-1`);
    expect(ids.some((id) => id?.startsWith('sheet-of-another'))).toBe(false);
    expect(queued).toBe(ids.length);
    await queueStatusRun(pipeline.ctx, 'repeat:status-sync:1');
    const again = await pipeline.ctx.queues.status.getJobs([
      'waiting',
      'active',
      'completed',
      'delayed',
      'prioritized',
    ]);
    expect(again.length).toBe(sheets.length);
    // The workers read it: status.csv appears.
    const deadline = Date.now() + 20_000;
    while (!(await readFile(join(mine.dir, 'status.csv'), 'utf8').catch(() => ''))) {
      if (Date.now() > deadline) throw new Error('no status.csv');
      await sleep(100);
    }
  });
});
