import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { observingContext } from '../helpers/pipeline.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { submitSheet } from '../../src/intake/submit.js';
import { sheetProgress } from '../../src/store/progress.js';

const ROWS = 40;
let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
let ctx: Context;
let observer: Awaited<ReturnType<typeof observingContext>>;

beforeAll(async () => {
  redis = await useTestRedis();
  // Slow enough that the worker is killed with requests in flight.
  sandbox = await testSandbox({ faults: { latencyMs: 120, jitterMs: 60 } });
  dataDir = await tempDir('kill-');
  observer = await observingContext({ redis, sandbox, reportsDir: join(dataDir, 'reports') });
  ctx = observer.ctx;
});
afterAll(async () => {
  await observer.close();
  await sandbox.close();
  await redis.cleanup();
});

function worker(): CliProcess {
  return orderImporter(['worker'], {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    CONCURRENCY: '4',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  });
}

async function until<T>(what: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a worker killed with SIGKILL in the middle of a sheet', () => {
  it('loses nothing: a new worker finishes it, no order twice, one report', async () => {
    const dir = await tempDir('kill-sheet-');
    await put(dir, 'docs/plan.pdf', '%PDF-1.4 plan');
    const rows = Array.from({ length: ROWS }, (_, i) =>
      sheetRow(i + 1, i % 2 === 0 ? { files: 'docs/plan.pdf' } : {}),
    );
    const { sheetId } = await submitSheet(ctx, await writeCsvSheet(dir, 'orders.csv', rows));

    const first = worker();
    await until(async () => {
      const progress = await sheetProgress(ctx.store, sheetId);
      return (progress?.final ?? 0) >= ROWS / 4 ? progress : undefined;
    }, 30_000);
    first.signal('SIGKILL');
    const killed = await first.finished;
    expect(killed.signal).toBe('SIGKILL');
    const midway = (await sheetProgress(ctx.store, sheetId))?.final ?? 0;
    expect(midway).toBeLessThan(ROWS);

    const second = worker();
    const done = await until(async () => {
      const progress = await sheetProgress(ctx.store, sheetId);
      return progress?.state === 'done' ? progress : undefined;
    }, 60_000);
    second.child.kill('SIGTERM');
    expect((await second.finished).code).toBe(0);

    // Every row is final, in exactly one status.
    const counts = done.counts;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(ROWS);
    expect(counts.created + counts['needs-review']).toBe(ROWS);
    // No order twice: one per contact at most, and one for every created row.
    const orders = await sandbox.api.listOrders();
    const perContact = new Map<string, number>();
    for (const o of orders)
      perContact.set(o.contact_name, (perContact.get(o.contact_name) ?? 0) + 1);
    expect([...perContact.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(orders.length).toBeGreaterThanOrEqual(counts.created);
    // The report was written once, and says the same.
    const sheet = await ctx.store.get(sheetId);
    expect(sheet?.reportWrites).toBe(1);
    const reports = await readdir(join(dataDir, 'reports'));
    expect(reports.filter((name) => name.includes(sheetId))).toHaveLength(1);
    const report = await readFile(join(done.reportDir ?? '', 'report.csv'), 'utf8');
    expect(report.trim().split('\r\n')).toHaveLength(ROWS + 1);
  });
});
