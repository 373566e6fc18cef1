import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { reconcileProcessor } from '../../jobs/reconcile.js';
import { closeSheetEarly } from '../../src/rows/outcome.js';
import { Keys } from '../../src/store/keys.js';
import { ApiPace } from '../../src/store/pace.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { freePort } from '../../src/redis/local-server.js';
import { resolveRedis } from '../../src/redis/resolve.js';
import { testPipeline } from '../helpers/pipeline.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { knownError } from '../helpers/known-error.js';

let redis: TestRedis;
let client: Redis;
let keys: Keys;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
  keys = new Keys(`{${redis.prefix}}`);
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

const sheet = (sheetId: string) => ({
  sheetId,
  path: `/tmp/${sheetId}.csv`,
  name: `${sheetId}.csv`,
  sha256: `sha-${sheetId}`,
  connectionId: 'c1',
  apiBaseUrl: 'http://api',
  sandbox: false,
  allowDuplicates: false,
  startedAt: new Date().toISOString(),
});

describe('SheetStore', () => {
  it('keeps the first result of a row and queues the report exactly once', async () => {
    const store = new SheetStore(client, keys);
    await store.create(sheet('s1'));
    expect(await store.finalize('s1', [[1, { status: 'created', orderId: 7, attempts: 1 }]])).toBe(
      false,
    );
    expect(await store.finalize('s1', [[1, { status: 'failed', attempts: 2 }]])).toBe(false);
    expect(await store.outcomes('s1', [1, 2])).toEqual([
      { status: 'created', orderId: 7, attempts: 1 },
      undefined,
    ]);

    // The total arrives; then the last rows finish at the same time, from many workers.
    expect(await store.setTotal('s1', 12)).toBe(false);
    const finishes = Array.from({ length: 11 }, (_, i) =>
      store.finalize('s1', [[i + 2, { status: 'created', orderId: 100 + i, attempts: 1 }]]),
    );
    const again = Array.from({ length: 11 }, (_, i) =>
      store.finalize('s1', [[i + 2, { status: 'failed', attempts: 1 }]]),
    );
    const due = await Promise.all([...finishes, ...again]);
    expect(due.filter(Boolean)).toHaveLength(1);
    expect(await store.finalCount('s1')).toBe(12);
    expect(await store.statusCounts('s1')).toMatchObject({ created: 12, failed: 0 });
  });

  it('keeps every row of a reported sheet final, so a late give-up cannot settle it again', async () => {
    const store = new SheetStore(client, keys);
    await store.create(sheet('s-done'));
    await store.finalize('s-done', [[1, { status: 'failed', attempts: 5 }]]);
    expect(await store.setTotal('s-done', 1)).toBe(true);
    await store.markReported('s-done', '/tmp/r', new Date().toISOString());
    expect(await store.isFinal('s-done', 1)).toBe(true);
    expect(await store.isFinal('s-unknown', 1)).toBe(false);
  });

  it('tells the report due when the total comes after the last row', async () => {
    const store = new SheetStore(client, keys);
    await store.create(sheet('s2'));
    await store.finalize('s2', [[1, { status: 'invalid', attempts: 0 }]]);
    expect(await store.setTotal('s2', 1)).toBe(true);
    expect(await store.setTotal('s2', 1)).toBe(false);
  });

  it('lets the reconciler queue the report of a sheet whose signal was lost', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const { store } = t.ctx;
      await store.create({ ...sheet('s3'), connectionId: t.ctx.connection.id });
      await store.finalize('s3', [[1, { status: 'created', orderId: 1, attempts: 1 }]]);
      // The row job died between its result and queueing the report: reportQueued is set.
      await t.ctx.redis.hset(t.ctx.keys.sheet('s3'), {
        total: '1',
        reportQueued: '1',
        state: 'processing',
      });
      const reconcile = reconcileProcessor(t.ctx);
      await reconcile({} as never);
      const report = await t.ctx.queues.reports.getJob('s3.report');
      expect(report?.data).toEqual({ sheetId: 's3' });
      await report?.remove();
      await store.markReported('s3', '/tmp/r', new Date().toISOString());
      await reconcile({} as never);
      expect(await t.ctx.queues.reports.getJob('s3.report')).toBeUndefined();
      expect(await t.ctx.redis.exists(t.ctx.keys.results('s3'), t.ctx.keys.final('s3'))).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('closeSheetEarly', () => {
  it('gives a sheet that stopped before a single row was counted an error, not an empty success', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const { store } = t.ctx;
      await store.create({ ...sheet('s-early'), connectionId: t.ctx.connection.id });
      await closeSheetEarly(t.ctx, 's-early', 'the sheet job gave up: ENAMETOOLONG');
      const closed = await store.get('s-early');
      expect(closed?.total).toBe(0);
      expect(closed?.error).toMatch(/stopped before its rows were read: the sheet job gave up/);
      expect((await t.ctx.queues.reports.getJob('s-early.report'))?.data).toEqual({
        sheetId: 's-early',
      });
    } finally {
      await t.close();
    }
  });
});

describe('ApiPace', () => {
  it('spaces requests evenly across every process sharing the Redis', async () => {
    const shared = new Keys(`{${redis.prefix}}-pace`);
    const paces = [0, 1, 2].map(() => new ApiPace(client, shared.apiPace('c1'), 1200)); // one per 50 ms
    const starts: number[] = [];
    const begun = Date.now();
    await Promise.all(
      paces.map(async (pace) => {
        for (let i = 0; i < 5; i++) {
          await pace.turn();
          starts.push(Date.now());
        }
      }),
    );
    starts.sort((x, y) => x - y);
    // Never early: the k-th request of all waits for the k-th slot, 50 ms after the one before
    // (timers fire late, never early, so lateness on a busy machine cannot fail this).
    const early = starts.filter((at, k) => at < begun + k * 50 - 2);
    expect(early).toEqual([]);
    expect((starts.at(-1) ?? 0) - begun).toBeGreaterThanOrEqual(14 * 50 - 2);
  });

  it('works with a limit that does not divide a minute', async () => {
    const key = new Keys(`{${redis.prefix}}-odd`).apiPace('c1');
    const pace = new ApiPace(client, key, 90 * 60); // 11.11 ms apart
    const begun = Date.now();
    for (let i = 0; i < 4; i++) await pace.turn();
    // The next free slot is four spacings after the first (a lone first turn takes "now"), kept
    // with its fraction; a late machine only moves it later, never earlier.
    const slot = Number(await client.get(key));
    expect(Number.isFinite(slot)).toBe(true);
    expect(slot).toBeGreaterThanOrEqual(begun + (4 * 60_000) / (90 * 60) - 2);
  });

  it('holds every process back for a Retry-After', async () => {
    const shared = new Keys(`{${redis.prefix}}-hold`);
    const a = new ApiPace(client, shared.apiPace('c1'), undefined);
    const b = new ApiPace(client, shared.apiPace('c1'), undefined);
    // Timed from before the hold is asked: a busy moment between the hold and the turn (the
    // CI run that failed here was at load 3) only makes the turn later, never earlier.
    const started = Date.now();
    await a.holdFor(300);
    await b.turn();
    expect(Date.now() - started).toBeGreaterThanOrEqual(299);
  });
});

describe('resolveRedis', () => {
  it('starts a private redis-server with AOF when nothing answers, and shares it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'resolve-'));
    const closed = `redis://127.0.0.1:${await freePort()}`;
    try {
      const first = await resolveRedis({ dataDir, defaultUrl: closed });
      expect(first.source).toBe('private');
      expect(await readFile(join(dataDir, 'redis', 'url'), 'utf8')).toBe(`${first.target.shown}\n`);
      const second = await resolveRedis({ dataDir, defaultUrl: closed });
      expect(second).toMatchObject({ source: 'private', target: { shown: first.target.shown } });
      const check = new Redis(first.target.shown);
      expect(await check.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      check.disconnect();
      // A process that only looks (the dashboard alone) uses the running one, never starts one.
      const looking = await resolveRedis({ dataDir, defaultUrl: closed, startPrivate: false });
      expect(looking).toMatchObject({ source: 'private', target: { shown: first.target.shown } });
      await second.release();
      await first.release();
      await expect(
        resolveRedis({ dataDir, defaultUrl: closed, startPrivate: false }),
      ).rejects.toThrow(
        /no importer's private redis-server runs under .*: start order-importer watch/,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a REDIS_URL that does not answer, and says how to get one otherwise', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'resolve-'));
    try {
      await expect(resolveRedis({ configured: 'redis://127.0.0.1:1', dataDir })).rejects.toThrow(
        /^REDIS_URL redis:\/\/127\.0\.0\.1:1\/? does not answer/,
      );
      const error = await resolveRedis({
        dataDir,
        defaultUrl: 'redis://127.0.0.1:1',
        binary: '/nonexistent/redis-server',
      }).catch((e: unknown) => e);
      expect(error).toEqual(knownError('UserError', 'redis.unavailable'));
      expect((error as Error).message).toMatch(/apt-get install redis-server/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
