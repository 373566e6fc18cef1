/**
 * `orders.changed` is told once per change, and every change is told:
 * - two status runs of one sheet at the same time (the `status` command while `watch`'s scheduled
 *   refresh reads it, or two firings overlapping) compare with the same previous status.csv and
 *   find the same changes: one event, one id, told once (DESIGN §2 Notifications);
 * - a status job stopped between queueing the event and putting status.csv in place (a kill, a
 *   failed write) and run again finds those changes again, and any made since: what it then
 *   writes into status.csv is told, not taken for the event already queued. The stop is made as
 *   it would leave things: the first run's status.csv put back as it was.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { ChangedOrder } from '../../src/notify/events.js';
import { reportOfSheet } from '../../src/status/report-folder.js';
import { refreshSheetStatus } from '../../src/status/status.js';
import { drained } from '../helpers/drain.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let hook: WebhookReceiver;
let db: Database.Database;

beforeAll(async () => {
  hook = await webhookReceiver();
  const sandboxDir = await tempDir('orders-changed-sandbox-');
  t = await testPipeline({
    sandbox: { dataDir: sandboxDir },
    settings: { notify: { webhook: { url: hook.url }, retryHours: 24 } },
  });
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
});
afterAll(async () => {
  db.close();
  await t.close();
  await hook.close();
});

/** Whether a request the receiver got is an `orders.changed` of this sheet. */
function toldOf(sheetId: string): (r: { body: string }) => boolean {
  return (r) => {
    const body = JSON.parse(r.body) as { event: string; sheetId?: string };
    return body.event === 'orders.changed' && body.sheetId === sheetId;
  };
}

it('tells one change once, even when two status runs of the sheet overlap', async () => {
  const dir = await tempDir('review13-race-sheet-');
  const { sheetId } = await t.importSheet(
    await writeCsvSheet(dir, 'orders.csv', [sheetRow(1), sheetRow(2)]),
    60_000,
  );
  const sheet = await reportOfSheet(t.reportsDir, sheetId);
  if (sheet === undefined) throw new Error('no report');
  // A first run: status.csv holds the orders as new.
  await refreshSheetStatus(t.ctx, sheet);
  // The planners move one order.
  db.prepare("UPDATE orders SET status = 'planned' WHERE id = (SELECT MIN(id) FROM orders)").run();

  // The `status` command and the scheduled refresh read the sheet at the same time.
  const [cli, scheduled] = await Promise.all([
    refreshSheetStatus(t.ctx, sheet),
    refreshSheetStatus(t.ctx, sheet),
  ]);
  expect(cli.changed + scheduled.changed).toBeGreaterThan(0);

  const changed = toldOf(sheetId);
  await hook.waitFor(1, changed, 30_000);
  // Both runs have queued whatever they were going to: once the notify queue is worked through,
  // a second delivery would have arrived.
  await drained(t.ctx.queues.notify);
  const told = hook.received.filter(changed);
  const ids = new Set(told.map((r) => r.headers['x-order-importer-event']));
  expect(told.length, `orders.changed bodies received, ids ${[...ids].join(', ')}`).toBe(1);
});

it('tells every change a retried status job writes into status.csv', async () => {
  const dir = await tempDir('review13-retry-sheet-');
  const { sheetId } = await t.importSheet(
    await writeCsvSheet(dir, 'orders.csv', [sheetRow(3), sheetRow(4)]),
    60_000,
  );
  const sheet = await reportOfSheet(t.reportsDir, sheetId);
  if (sheet === undefined) throw new Error('no report');
  await refreshSheetStatus(t.ctx, sheet);
  const ids = (db.prepare('SELECT id FROM orders ORDER BY id').all() as Array<{ id: number }>).map(
    (r) => r.id,
  );
  const [first, second] = ids.slice(-2);
  const saved = join(dir, 'status-before.csv');
  await copyFile(join(sheet.dir, 'status.csv'), saved);

  // The job of run-1: the first order moved; the event is queued, then the job stops before its
  // status.csv is in place.
  db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(first);
  await refreshSheetStatus(t.ctx, sheet);
  await copyFile(saved, join(sheet.dir, 'status.csv'));

  // Meanwhile the second order moves too; BullMQ runs the job of run-1 again.
  db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(second);
  const retried = await refreshSheetStatus(t.ctx, sheet);
  expect(retried.changedOrders.map((o) => o.order_id).sort()).toEqual([first, second].sort());

  const changed = toldOf(sheetId);
  await hook.waitFor(1, changed, 30_000);
  // Every delivery queued by the runs above has arrived once the notify queue is worked through.
  await drained(t.ctx.queues.notify);
  const told = new Set(
    hook.received
      .filter(changed)
      .flatMap((r) => (JSON.parse(r.body) as { orders: ChangedOrder[] }).orders)
      .map((o) => o.order_id),
  );
  // status.csv now says the second order is planned: someone must have been told.
  expect([...told].sort()).toEqual([first, second].sort());
});
