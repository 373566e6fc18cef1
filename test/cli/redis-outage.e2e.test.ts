/**
 * `import` and a Redis that goes away under it (docs/design.md, "Start-up, outages and the edges"): it
 * goes on when Redis is back, or exits 1 after REDIS_WAIT_S; it never hangs. Each test runs its
 * own redis-server with AOF on (as a real deployment keeps it), so that it can be stopped and
 * started again on the same port with the same data.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { ROW_STATUSES } from '../../src/glossary.js';
import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { endsWithin, ordersReach } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const ROWS = 300;

interface Setup {
  redisDir: string;
  redis: LocalRedis;
  sandbox: TestSandbox;
  dataDir: string;
  sheet: string;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<Setup> {
  const redisDir = await tempDir('outage-redis-');
  const redis = await startLocalRedis({ dir: redisDir, appendOnly: true });
  // Slow enough for the sheet to take several seconds, so that Redis goes away in its middle.
  const sandbox = await testSandbox({ faults: { latencyMs: 40 } });
  const dataDir = await tempDir('outage-data-');
  const rows = Array.from({ length: ROWS }, (_, i) => sheetRow(3000 + i));
  const sheet = await writeCsvSheet(await tempDir('outage-sheet-'), 'orders.csv', rows);
  const setup = { redisDir, redis, sandbox, dataDir, sheet };
  cleanups.push(async () => {
    await setup.redis.stop();
    await sandbox.close();
  });
  return setup;
}

function importing(s: Setup, extra: Record<string, string> = {}): CliProcess {
  const cli = orderImporter(['import', '--json', s.sheet], {
    REDIS_URL: s.redis.url,
    QUEUE_PREFIX: '{outage}',
    API_BASE_URL: s.sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: s.dataDir,
    CONCURRENCY: '4',
    RETRY_DELAY_MS: '50',
    // A job BullMQ handed over in an answer Redis's going away lost is taken up again only once
    // its lock has run out and a stall check has seen it: up to 1.5 × JOB_LOCK_MS, which at the
    // default 30 s is longer than the 40 s the import is given after Redis is back. A lock that
    // outlives the 3 s outage still.
    JOB_LOCK_MS: '10000',
    ...extra,
  });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });
  return cli;
}

/** Lines of stack traces or of an unhandled error, one of which comes per retry when unhandled. */
function traces(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\s+at |Unhandled error|"stack"/.test(line));
}

describe('import while Redis restarts', () => {
  it('goes on when Redis is back: every row reported once, no order twice', async () => {
    const s = await setup();
    const cli = importing(s, { LOG_LEVEL: 'warn' });
    await ordersReach(s.sandbox, 40, cli);
    await s.redis.stop();
    await sleep(3000);
    s.redis = await startLocalRedis({ dir: s.redisDir, appendOnly: true, port: s.redis.port });

    const finished = await endsWithin(cli, 40_000);
    expect([0, 2], finished.stderr).toContain(finished.code);
    const [summary] = JSON.parse(finished.stdout) as Summary[];
    const csv = await readFile(join(summary?.reportDir ?? '', 'report.csv'), 'utf8');
    const lines = parse<Record<string, string>>(csv, { bom: true, columns: true, delimiter: ';' });
    expect(lines).toHaveLength(ROWS);
    expect(new Set(lines.map((l) => l.row)).size).toBe(ROWS);
    for (const line of lines) expect(ROW_STATUSES).toContain(line.status);

    const orders = await s.sandbox.api.listOrders();
    const perContact = new Map<string, number>();
    for (const o of orders)
      perContact.set(o.contact_name, (perContact.get(o.contact_name) ?? 0) + 1);
    expect([...perContact.values()].filter((n) => n > 1)).toEqual([]);
    const created = lines.filter((l) => l.status === 'created');
    const review = lines.filter((l) => l.status === 'needs-review');
    // Going on means going on: every row was either created or (a create in flight when Redis
    // went) says it needs a look; none failed or was dropped for the outage.
    expect(created.length + review.length).toBe(ROWS);
    expect(review.length).toBeLessThanOrEqual(16);
    // Every created row is an order; an order beyond those is a row that says it needs a look.
    for (const line of created) expect(orders.map((o) => String(o.id))).toContain(line.order_id);
    expect(orders.length).toBeLessThanOrEqual(created.length + review.length);

    expect(traces(finished.stderr)).toEqual([]);
    expect(finished.stderr).toMatch(/Redis at .* does not answer/);
    expect(finished.stderr).toMatch(/Redis at .* answers now/);
  }, 60_000);

  it('exits 1 with a plain message after REDIS_WAIT_S when Redis does not come back', async () => {
    const s = await setup();
    const cli = importing(s, { REDIS_WAIT_S: '2' });
    await ordersReach(s.sandbox, 40, cli);
    await s.redis.stop();
    const finished = await endsWithin(cli, 20_000);
    expect(finished.code, finished.stderr).toBe(1);
    expect(finished.stderr).toMatch(
      /^order-importer: Redis at redis:\/\/127\.0\.0\.1:\d+ has not answered for 2 s \(REDIS_WAIT_S\)/m,
    );
    expect(traces(finished.stderr)).toEqual([]);
  }, 40_000);

  it('stops on a first SIGTERM while it waits for Redis', async () => {
    const s = await setup();
    const cli = importing(s);
    await ordersReach(s.sandbox, 40, cli);
    await s.redis.stop();
    await cli.waitForStderr(/Redis at .* does not answer/, 10_000);
    cli.signal('SIGTERM');
    const finished = await endsWithin(cli, 20_000);
    expect(finished.code, finished.stderr).toBe(1);
    expect(finished.stderr).toMatch(/Interrupted/);
    expect(traces(finished.stderr)).toEqual([]);
  }, 40_000);
});

describe('a worker while Redis restarts', () => {
  it('keeps running, says so once, and works again once Redis is back', async () => {
    const s = await setup();
    const env = {
      REDIS_URL: s.redis.url,
      QUEUE_PREFIX: '{outage}',
      API_BASE_URL: s.sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: s.dataDir,
      RETRY_DELAY_MS: '50',
      LOG_LEVEL: 'info',
    };
    const worker = orderImporter(['worker'], env);
    cleanups.push(async () => {
      if (worker.child.exitCode === null && worker.child.signalCode === null) {
        worker.signal('SIGKILL');
        await worker.finished;
      }
    });
    await worker.waitForStderr(/Worker ready/);
    await s.redis.stop();
    await worker.waitForStderr(/Redis at .* does not answer/, 10_000);
    await sleep(3000);
    expect(worker.child.exitCode).toBeNull();
    s.redis = await startLocalRedis({ dir: s.redisDir, appendOnly: true, port: s.redis.port });
    await worker.waitForStderr(/Redis at .* answers now/, 20_000);

    const sheet = await writeCsvSheet(await tempDir('after-'), 'after.csv', [sheetRow(4001)]);
    const imported = await endsWithin(
      orderImporter(['import', '--no-workers', sheet], env),
      30_000,
    );
    expect(imported.code, imported.stderr).toBe(0);

    worker.signal('SIGTERM');
    const stopped = await endsWithin(worker, 20_000);
    expect(stopped.code, stopped.stderr).toBe(0);
    const plain = stopped.stderr.split('\n').filter((l) => /^Redis at .* does not answer/.test(l));
    expect(plain).toHaveLength(1);
    expect(traces(stopped.stderr)).toEqual([]);
  }, 60_000);
});
