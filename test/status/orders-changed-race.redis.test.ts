/**
 * Two status runs of one sheet at the same time (the `status` command while `watch`'s scheduled
 * refresh reads it, or two firings overlapping) compare with the same previous status.csv and find
 * the same changes: they are one `orders.changed`, one id, told once (DESIGN §2 Notifications).
 */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { reportOfSheet } from '../../src/status/report-folder.js';
import { refreshSheetStatus } from '../../src/status/status.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let hook: WebhookReceiver;
let db: Database.Database;

beforeAll(async () => {
  hook = await webhookReceiver();
  const sandboxDir = await tempDir('review13-race-sandbox-');
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

  const changed = (r: { body: string }) =>
    (JSON.parse(r.body) as { event: string }).event === 'orders.changed';
  await hook.waitFor(1, changed, 30_000);
  // Give a second delivery, if any, its chance to arrive (not a timed assertion of the product:
  // only a wait for an event that must not come).
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const told = hook.received.filter(changed);
  const ids = new Set(told.map((r) => r.headers['x-order-importer-event']));
  expect(told.length, `orders.changed bodies received, ids ${[...ids].join(', ')}`).toBe(1);
});
