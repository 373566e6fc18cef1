/**
 * docs/operations.md, "Redis in production": an import on a Sentinel set whose master fails in
 * its middle — killed (SIGKILL: no goodbye to its clients, its last writes only as far as
 * replication took them), or hung (SIGSTOP: its connections stay open and never answer) — goes on
 * through the failover without a restart: every row created exactly once, counted in the
 * sandbox, and the work going on within 30 s of the fault. The set's data nodes require an ACL
 * user, whose password no line of the import's output holds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { orderImporter } from '../helpers/cli.js';
import { endsWithin, ordersReach } from '../helpers/cli-waits.js';
import { eventually } from '../helpers/eventually.js';
import { tempDir } from '../helpers/files.js';
import { stopAll } from '../helpers/redis-servers.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { startSentinelSet } from '../helpers/sentinel.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const ROWS = 150;
const CONCURRENCY = 4;
const PASSWORD = 'Fa1lover-Pa55word';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stopAll();
});

/** Lines of stack traces or of an unhandled error. */
function traces(output: string): string[] {
  return output.split('\n').filter((line) => /^\s+at |Unhandled error|"stack"/.test(line));
}

const orderCount = async (sandbox: TestSandbox) => (await sandbox.api.listOrders()).length;

/**
 * An import of ROWS rows on a fresh Sentinel set whose master meets `fault` once 30 orders are
 * made; checked in full: the import goes on without a restart and ends with every row created
 * exactly once.
 */
async function importThroughFailover(fault: 'SIGKILL' | 'SIGSTOP'): Promise<void> {
  const set = await startSentinelSet({ user: { name: 'importer', password: PASSWORD } });
  // Slow enough for the sheet to take a few seconds, so that the master fails in its middle.
  const sandbox = await testSandbox({ faults: { latencyMs: 40 } });
  cleanups.push(() => sandbox.close());
  const rows = Array.from({ length: ROWS }, (_, i) => sheetRow(5000 + i));
  const sheet = await writeCsvSheet(await tempDir('failover-sheet-'), 'orders.csv', rows);
  const cli = orderImporter(['import', '--json', sheet], {
    REDIS_URL: set.url,
    QUEUE_PREFIX: '{failover}',
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: await tempDir('failover-data-'),
    CONCURRENCY: String(CONCURRENCY),
    RETRY_DELAY_MS: '50',
    LOG_LEVEL: 'debug',
  });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });

  await ordersReach(sandbox, 30, cli);
  const old = await set.killMaster(fault);
  const failedAt = Date.now();
  const atFault = await orderCount(sandbox);
  await set.promoted(old);
  // At most one create per row in flight could still end without Redis: one more than those
  // is a row claimed in Redis after the fault, on the new master.
  await eventually(
    async () =>
      (await orderCount(sandbox)) > atFault + CONCURRENCY || cli.child.exitCode !== null
        ? true
        : undefined,
    () => `no order after the failover (${atFault} at the fault):\n${cli.stderr.slice(-3000)}`,
    40_000,
  );
  expect(Date.now() - failedAt).toBeLessThan(30_000);

  const finished = await endsWithin(cli, 60_000);
  expect(finished.code, finished.stderr.slice(-3000)).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Summary[];
  const csv = await readFile(join(summary?.reportDir ?? '', 'report.csv'), 'utf8');
  const lines = parse<Record<string, string>>(csv, { bom: true, columns: true, delimiter: ';' });
  expect(lines).toHaveLength(ROWS);
  expect(lines.filter((l) => l.status !== 'created')).toEqual([]);
  const orders = await sandbox.api.listOrders();
  expect(orders).toHaveLength(ROWS);
  expect(new Set(orders.map((o) => o.contact_name)).size).toBe(ROWS);
  expect(new Set(lines.map((l) => l.order_id))).toEqual(new Set(orders.map((o) => String(o.id))));

  expect(traces(finished.stderr)).toEqual([]);
  expect(`${finished.stdout}${finished.stderr}`).not.toContain(PASSWORD);
}

describe('import on a Sentinel set whose master fails in its middle', () => {
  it('goes on when the master is killed: every row created exactly once, no restart', async () => {
    await importThroughFailover('SIGKILL');
  }, 120_000);

  it('goes on when the master hangs (its connections open, never answering)', async () => {
    // No connection closes: only the sentinels' +switch-master tells the clients to move.
    await importThroughFailover('SIGSTOP');
  }, 120_000);
});
