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
        address: 'Kerkstraat 1, 9000 Gent',
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

  it("writes each order's address and contact at the end of its lines, as the API has them; an address changed alone is no changed order", async () => {
    const sheet = await importedSheet(201, 2);
    await refreshSheetStatus(pipeline.ctx, sheet);
    const [header, first = ''] = (await readFile(join(sheet.dir, 'status.csv'), 'utf8'))
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(header).toBe(
      'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at;address;contact_name',
    );
    expect(first.split(';').slice(-2)).toEqual(['Kerkstraat 201, 9000 Gent', 'Contact 201']);
    const orderId = Number(first.split(';')[2]);
    // The provider moved the visit to another address: status.csv says where it goes now.
    db.prepare(
      "UPDATE orders SET fields = json_set(fields, '$.address1', 'Veldstraat', '$.contact_name', 'Hélène') WHERE id = ?",
    ).run(orderId);
    const moved = await refreshSheetStatus(pipeline.ctx, sheet);
    expect(moved).toMatchObject({ changed: 0, unreadable: 0 });
    const [, again = ''] = (await readFile(join(sheet.dir, 'status.csv'), 'utf8')).split('\r\n');
    expect(again.split(';').slice(-2)).toEqual(['Veldstraat 201, 9000 Gent', 'Hélène']);
    // Its status changed: the change names the address it goes to.
    db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(orderId);
    const planned = await refreshSheetStatus(pipeline.ctx, sheet);
    expect(planned.changedOrders).toMatchObject([
      { order_id: orderId, address: 'Veldstraat 201, 9000 Gent' },
    ]);
  });

  it('reads an older status.csv without address and contact_name: nothing counted changed, the two filled in', async () => {
    const sheet = await importedSheet(301, 2);
    await refreshSheetStatus(pipeline.ctx, sheet);
    const file = join(sheet.dir, 'status.csv');
    const older = (await readFile(file, 'utf8'))
      .split('\r\n')
      .map((line) => (line === '' ? line : line.split(';').slice(0, 10).join(';')))
      .join('\r\n');
    expect(older).not.toContain('address');
    await writeFile(file, older);
    const read = await refreshSheetStatus(pipeline.ctx, sheet);
    expect(read).toMatchObject({ orders: 2, changed: 0, unreadable: 0 });
    const lines = (await readFile(file, 'utf8')).split('\r\n');
    expect(lines[0]).toMatch(/;checked_at;address;contact_name$/);
    expect(lines[2]?.split(';').slice(-2)).toEqual(['Kerkstraat 302, 9000 Gent', 'Contact 302']);
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
