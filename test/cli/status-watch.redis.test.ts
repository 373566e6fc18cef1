/**
 * The scheduled refresh of `watch` (STATUS_SYNC_CRON): a job scheduler on the connection's status
 * queue whose firings read every recent sheet back into its status.csv, again at each firing;
 * `off` removes it. In process through its IO, over a real Redis and the sandbox over HTTP.
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { InProcessCli, runInProcess, importerEnv } from '../helpers/cli.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let db: Database.Database;
let dataDir: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await webhookReceiver();
  redis = await useTestRedis();
  const sandboxDir = await tempDir('status-watch-sandbox-');
  sandbox = await testSandbox({ dataDir: sandboxDir });
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
  dataDir = await tempDir('status-watch-data-');
});
afterAll(async () => {
  await receiver.close();
  db.close();
  await sandbox.close();
  await redis.cleanup();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return importerEnv({ redis, apiUrl: sandbox.url, dataDir }, { JOB_LOCK_MS: '2000', ...extra });
}

/** status.csv once it holds `pattern`; fails after a generous wait. */
async function statusCsvWith(
  summary: Summary,
  pattern: RegExp,
  cli: InProcessCli,
): Promise<string> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const text = await readFile(join(summary.reportDir, 'status.csv'), 'utf8').catch(() => '');
    if (pattern.test(text)) return text;
    if (Date.now() > deadline)
      throw new Error(`no ${pattern} in status.csv: ${text}\n${cli.stderr}`);
    await sleep(200);
  }
}

describe('watch: the scheduled refresh of the orders', () => {
  it('reads recent sheets back on STATUS_SYNC_CRON, at every firing, tells orders.changed, and `off` removes the schedule', async () => {
    const sheets = await tempDir('status-watch-sheets-');
    const path = await writeCsvSheet(sheets, 'orders.csv', [sheetRow(1), sheetRow(2)]);
    const imported = await runInProcess(['import', '--json', path], env());
    expect(imported.code, imported.stderr).toBe(0);
    const [summary] = JSON.parse(imported.stdout) as Summary[];
    if (summary === undefined) throw new Error('no summary');

    const cli = new InProcessCli(
      ['watch', '--no-dashboard'],
      env({
        STATUS_SYNC_CRON: '* * * * * *',
        NOTIFY_WEBHOOK_URL: receiver.url,
        NOTIFY_WEBHOOK_SECRET: 'status-secret',
      }),
    );
    try {
      await cli.waitForStderr(/are read back on "\* \* \* \* \* \*" \(STATUS_SYNC_CRON\)/, 30_000);
      const first = await statusCsvWith(summary, /to schedule/, cli);
      expect(first.startsWith('\uFEFFrow;reference;order_id;order_status;')).toBe(true);
      db.prepare("UPDATE orders SET status = 'planned'").run();
      await statusCsvWith(summary, /;planned;/, cli);
      const [told] = await receiver.waitFor(1, (r) => r.body.includes('"orders.changed"'));
      if (told === undefined) throw new Error('no orders.changed');
      const signature = createHmac('sha256', 'status-secret').update(told.body).digest('hex');
      expect(told.headers['x-order-importer-signature']).toBe(`sha256=${signature}`);
      const body = JSON.parse(told.body) as { sheetId: string; orders: unknown[] };
      expect(body.sheetId).toBe(summary.sheetId);
      expect(body.orders).toHaveLength(2);
      expect(body.orders[0]).toMatchObject({
        row: 1,
        before: { order_status: 'to schedule' },
        after: { order_status: 'planned' },
      });
      expect(told.body).not.toContain('sandbox-demo-token');
    } finally {
      cli.stop();
    }
    expect((await cli.finished).code, cli.stderr).toBe(0);

    const off = new InProcessCli(['watch', '--no-dashboard'], env({ STATUS_SYNC_CRON: 'off' }));
    try {
      await off.waitForStderr(/not read back on a schedule \(STATUS_SYNC_CRON off\)/, 30_000);
    } finally {
      off.stop();
    }
    expect((await off.finished).code, off.stderr).toBe(0);
    const queue = new Queue(`status-${summary.connection.id}`, {
      connection: { url: redis.url },
      prefix: `{${redis.prefix}}`,
    });
    try {
      expect(await queue.getJobSchedulers()).toEqual([]);
      // A finished status job keeps counts in Redis, not the orders' details (status.csv has them).
      const finished = await queue.getJobs(['completed']);
      const sheetJobs = finished.filter((job) => job.name !== 'status-sync');
      expect(sheetJobs.length).toBeGreaterThan(0);
      for (const job of sheetJobs) {
        expect(job.returnvalue).toMatchObject({ sheetId: summary.sheetId });
        expect(JSON.stringify(job.returnvalue)).not.toMatch(/changedOrders|order_status|R-1/);
      }
    } finally {
      await queue.close();
    }
  }, 120_000);
});
