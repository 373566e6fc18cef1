/**
 * A Redis that keeps nothing on disk, killed (-9) and started again empty in the middle of an
 * import (docs/design.md §3, "A Redis that forgot"): the import stops with one line, no order is
 * ever made twice — not by the import in flight, not by the next one — and once `ledger rebuild`
 * has run, the rows imported before are `duplicate` again.
 */

import { afterEach, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { endsWithin, ordersReach } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const ROWS = 200;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A redis-server that keeps nothing on disk (`--save '' --appendonly no`), as many local ones. */
async function forgetfulRedis(port?: number): Promise<LocalRedis> {
  const redis = await startLocalRedis({
    dir: await tempDir('forgot-redis-'),
    appendOnly: false,
    ...(port !== undefined && { port }),
  });
  cleanups.push(() => redis.stop());
  return redis;
}

function run(args: string[], env: Record<string, string>): CliProcess {
  const cli = orderImporter(args, env);
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });
  return cli;
}

/** Contacts with more than one order: each sheet row has a contact of its own. */
async function twice(sandbox: TestSandbox): Promise<string[]> {
  const seen = new Map<string, number>();
  for (const o of await sandbox.api.listOrders())
    seen.set(o.contact_name, (seen.get(o.contact_name) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([name]) => name);
}

function traces(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^\s+at |ZodError|Unhandled error|"stack"|unexpected error/.test(line));
}

describe('a Redis that keeps nothing on disk, killed and started again empty', () => {
  it('stops the import with one line, refuses the next until `ledger rebuild`, and makes no order twice', async () => {
    let redis = await forgetfulRedis();
    const sandbox = await testSandbox({ faults: { latencyMs: 40 } });
    cleanups.push(() => sandbox.close());
    const dataDir = await tempDir('forgot-data-');
    const rows = Array.from({ length: ROWS }, (_, i) => sheetRow(5000 + i));
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'orders.csv', rows);
    const env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: '{forgot}',
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: dataDir,
      REPORTS_DIR: await tempDir('forgot-reports-'),
      CONCURRENCY: '4',
      RETRY_DELAY_MS: '50',
      JOB_LOCK_MS: '10000',
    };

    const first = run(['import', '--json', sheet], env);
    await first.waitForStderr(/keeps nothing on disk/, 20_000);
    await ordersReach(sandbox, 40, first);
    redis.process.kill('SIGKILL');
    await new Promise((resolve) => redis.process.once('exit', resolve));
    redis = await forgetfulRedis(redis.port);

    const stopped = await endsWithin(first, 60_000);
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toMatch(/lost .*data|forgot/i);
    expect(traces(stopped.stderr)).toEqual([]);
    expect(await twice(sandbox)).toEqual([]);
    const afterCrash = (await sandbox.api.listOrders()).length;

    const refused = await endsWithin(run(['import', '--json', sheet], env), 60_000);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/order-importer ledger rebuild/);
    expect(traces(refused.stderr)).toEqual([]);
    expect((await sandbox.api.listOrders()).length).toBe(afterCrash);

    const rebuilt = await endsWithin(run(['ledger', 'rebuild'], env), 60_000);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);

    const again = await endsWithin(run(['import', '--json', sheet], env), 90_000);
    expect([0, 2], again.stderr).toContain(again.code);
    const [summary] = JSON.parse(again.stdout) as Summary[];
    // Every order made before the crash is a duplicate now; a create whose answer was lost is
    // left to a person; the rest is made once.
    expect(summary?.duplicate ?? 0).toBeGreaterThanOrEqual(afterCrash - 16);
    expect((summary?.duplicate ?? 0) + (summary?.needsReview ?? 0)).toBeGreaterThanOrEqual(
      afterCrash,
    );
    expect(await twice(sandbox)).toEqual([]);
    expect((await sandbox.api.listOrders()).length).toBeLessThanOrEqual(ROWS);
  }, 240_000);
});
