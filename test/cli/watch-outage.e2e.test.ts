/**
 * `watch` while Redis goes away with rows in flight (docs/design.md "Outages, said once"): the
 * terminal says once that Redis is away and once that it is back, and the jobs whose locks lapsed
 * meanwhile are one line, not a warning per job. Its own redis-server (AOF on), stopped and
 * started again on the same port.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { freePort, type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { CUT_OFF_MS } from '../../src/policy.js';
import { type CliExit, type CliProcess, orderImporter } from '../helpers/cli.js';
import { endsWithin, ordersReach } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { officesWatch } from '../helpers/offices-watch.js';
import { testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const LOCK_MS = 2000;
/** Past eight reconnections: BullMQ's clients then wait several seconds between tries. */
const OUTAGE_MS = 12_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  cli: CliProcess;
  redisDir: string;
  redis: LocalRedis;
  dashboard: string;
}

/** A watch over its own Redis, a slow sandbox, and a sheet of 300 rows in flight. */
async function watchWithRowsInFlight(): Promise<Running> {
  const redisDir = await tempDir('watch-outage-redis-');
  const redis = await startLocalRedis({ dir: redisDir, appendOnly: true });
  const running = { redisDir, redis, dashboard: '' };
  const sandbox = await testSandbox({ faults: { latencyMs: 40 } });
  cleanups.push(async () => {
    await running.redis.stop();
    await sandbox.close();
  });
  const dataDir = await tempDir('watch-outage-data-');
  const port = await freePort();
  running.dashboard = `http://127.0.0.1:${port}`;
  const cli = orderImporter(['watch'], {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: '{watch-outage}',
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    CONCURRENCY: '4',
    RETRY_DELAY_MS: '50',
    INBOX_STABLE_MS: '200',
    JOB_LOCK_MS: String(LOCK_MS),
    DASHBOARD_PORT: String(port),
    // As a service logs: the JSON log at info beside the plain lines.
    LOG_LEVEL: 'info',
  });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });
  const r = Object.assign(running, { cli });
  await cli.waitForStderr(/Watching /, 30_000);
  const rows = Array.from({ length: 300 }, (_, i) => sheetRow(5000 + i));
  await writeCsvSheet(join(dataDir, 'inbox'), 'orders.csv', rows);
  await ordersReach(sandbox, 20, cli);
  // Mutable: outage() starts Redis again, and the cleanup stops the one running then.
  return r;
}

/** Redis stopped for longer than a job's lock, then started again on the same port. */
async function outage(r: Running): Promise<void> {
  await r.redis.stop();
  await r.cli.waitForStderr(/^Redis at .* does not answer/m, 10_000);
  // The outage's length is what is tested: past JOB_LOCK_MS, the locks of the jobs in flight lapse.
  await sleep(LOCK_MS * 2);
  r.redis = await startLocalRedis({ dir: r.redisDir, appendOnly: true, port: r.redis.port });
}

const linesWith = (stderr: string, pattern: RegExp) =>
  stderr.split('\n').filter((line) => pattern.test(line));

describe('watch while Redis is away', () => {
  it('says once that it is away, once that it is back, and the lost locks in one line', async () => {
    const r = await watchWithRowsInFlight();
    await outage(r);
    await r.cli.waitForStderr(/^Done: orders\.csv/m, 60_000);
    await r.cli.waitForStderr(/locks? (was|were) lost while Redis was away/, 20_000);
    r.cli.signal('SIGTERM');
    const ended = await endsWithin(r.cli, 30_000);
    expect(ended.code, ended.stderr).toBe(0);
    expect(linesWith(ended.stderr, /does not answer/), ended.stderr).toHaveLength(1);
    expect(linesWith(ended.stderr, /answers now/), ended.stderr).toHaveLength(1);
    expect(linesWith(ended.stderr, /lock was lost \(/), ended.stderr).toEqual([]);
    const summed = linesWith(ended.stderr, /locks? (was|were) lost while Redis was away/);
    expect(summed, ended.stderr).toHaveLength(1);
    expect(summed[0]).toMatch(/^\d+ jobs?/);
  }, 120_000);
});

/** A page of the dashboard, with a guard against a hang (the figure is 2 s). */
async function page(url: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const answer = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const body = await answer.text();
  return { status: answer.status, body, ms: Math.round(performance.now() - started) };
}

describe("watch's dashboard while Redis is away", () => {
  it('answers from what it last read, saying that Redis does not answer', async () => {
    const r = await watchWithRowsInFlight();
    const took = await r.cli.waitForStderr(/as sheet (\S+)\./);
    const sheetId = took[1] ?? '';
    // Read once while Redis answers: what the dashboard then has.
    expect((await page(`${r.dashboard}/`)).body).toContain('orders.csv');
    await r.redis.stop();
    await r.cli.waitForStderr(/^Redis at .* does not answer/m, 10_000);
    const overview = await page(`${r.dashboard}/`);
    const sheet = await page(`${r.dashboard}/sheets/${encodeURIComponent(sheetId)}`);
    const api = await page(`${r.dashboard}/api/imports`);
    console.log(`while Redis is away: / ${overview.ms} ms, sheet ${sheet.ms} ms, api ${api.ms} ms`);
    expect(overview.status).toBe(200);
    expect(overview.body).toContain('orders.csv');
    expect(overview.body).toMatch(/Redis does not answer/);
    expect(sheet.status).toBe(200);
    expect(sheet.body).toContain('orders.csv');
    expect(sheet.body).toMatch(/Redis does not answer/);
    const json = JSON.parse(api.body) as { imports: unknown[]; redis?: string; asOf?: string };
    expect(json.imports.length).toBe(1);
    expect(json.redis).toBe('away');
    expect(typeof json.asOf).toBe('string');
    r.redis = await startLocalRedis({ dir: r.redisDir, appendOnly: true, port: r.redis.port });
  }, 120_000);
});

/**
 * A stop with nothing in flight waits for no grace period: the workers close at once, the queues'
 * connections within CUT_OFF_MS. Three times that leaves room for a loaded machine, and is far
 * below a stop that waits for the grace (SERVICE_GRACE_MS) on a connection that never ends.
 */
const IDLE_STOP_MS = 3 * CUT_OFF_MS;

/** SIGTERM, and the exit within IDLE_STOP_MS (a hang guard, the bound, and its figure said). */
async function stopsSoon(cli: CliProcess, what: string): Promise<CliExit> {
  const started = performance.now();
  cli.signal('SIGTERM');
  const ended = await endsWithin(cli, IDLE_STOP_MS);
  console.log(`${what}: stopped in ${Math.round(performance.now() - started)} ms`);
  return ended;
}

describe('watch of two offices while Redis is away', () => {
  it('says once per process that Redis is away and once that it is back', async () => {
    const w = await officesWatch(cleanups);
    await w.stop();
    await w.cli.waitForStderr(/^Redis at .* does not answer/m, 10_000);
    await w.restart();
    await w.cli.waitForStderr(/^Redis at .* answers now/m, 30_000);
    // Each office's client hears Redis within the same moment: what they said is said by now.
    // Told to stop at once after the restart: each worker's connections may still be reconnecting.
    const ended = await stopsSoon(w.cli, 'SIGTERM just after the restart');
    expect(ended.code, ended.stderr).toBe(0);
    expect(linesWith(ended.stderr, /does not answer/), ended.stderr).toHaveLength(1);
    expect(linesWith(ended.stderr, /answers now/), ended.stderr).toHaveLength(1);
  }, 90_000);

  it('stops within its bound when told to as the work goes on after a restart', async () => {
    const w = await officesWatch(cleanups, {
      sandbox: { faults: { latencyMs: 40 } },
      env: { CONCURRENCY: '4', RETRY_DELAY_MS: '50', INBOX_STABLE_MS: '200' },
    });
    const rows = Array.from({ length: 150 }, (_, i) => sheetRow(6000 + i));
    await writeCsvSheet(join(w.dataDir, 'inbox', 'gent'), 'gent.csv', rows);
    await ordersReach(w.sandbox, 20, w.cli);
    await w.stop();
    await w.cli.waitForStderr(/^Redis at .* does not answer/m, 10_000);
    // What is tested: an outage long enough for the clients' reconnection backoff to have grown.
    await sleep(OUTAGE_MS);
    const before = (await w.sandbox.api.listOrders()).length;
    await w.restart();
    // The work goes on: orders are made again. Some of the workers' connections (brugge's, idle)
    // may still be waiting for their next try then.
    await ordersReach(w.sandbox, before + 10, w.cli);
    const ended = await stopsSoon(w.cli, 'SIGTERM once the work went on');
    expect(ended.code, ended.stderr).toBe(0);
    expect(linesWith(ended.stderr, /^Stopped/), ended.stderr).toHaveLength(1);
  }, 180_000);
});

describe('the dashboard alone while Redis is away', () => {
  it('answers from what it last read, saying that Redis does not answer', async () => {
    const redisDir = await tempDir('dashboard-outage-redis-');
    const running = { redis: await startLocalRedis({ dir: redisDir, appendOnly: true }) };
    const sandbox = await testSandbox();
    cleanups.push(async () => {
      await running.redis.stop();
      await sandbox.close();
    });
    const dataDir = await tempDir('dashboard-outage-data-');
    const port = await freePort();
    const env = {
      REDIS_URL: running.redis.url,
      QUEUE_PREFIX: '{dashboard-outage}',
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: dataDir,
      DASHBOARD_PORT: String(port),
    };
    const sheet = await writeCsvSheet(await tempDir('dashboard-outage-sheet-'), 'kantoor.csv', [
      sheetRow(7001),
    ]);
    const imported = await endsWithin(orderImporter(['import', sheet], env), 60_000);
    expect(imported.code, imported.stderr).toBe(0);
    const cli = orderImporter(['dashboard'], env);
    cleanups.push(async () => {
      if (cli.child.exitCode === null && cli.child.signalCode === null) {
        cli.signal('SIGKILL');
        await cli.finished;
      }
    });
    await cli.waitForStderr(/Dashboard: /, 30_000);
    const url = `http://127.0.0.1:${port}`;
    expect((await page(`${url}/`)).body).toContain('kantoor.csv');
    await running.redis.stop();
    const overview = await page(`${url}/`);
    const api = await page(`${url}/api/imports`);
    console.log(`dashboard alone, Redis away: / ${overview.ms} ms, api ${api.ms} ms`);
    expect(overview.status).toBe(200);
    expect(overview.body).toContain('kantoor.csv');
    expect(overview.body).toMatch(/Redis does not answer/);
    expect((JSON.parse(api.body) as { redis?: string }).redis).toBe('away');
    running.redis = await startLocalRedis({
      dir: redisDir,
      appendOnly: true,
      port: running.redis.port,
    });
  }, 120_000);
});
