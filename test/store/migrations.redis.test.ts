/** Upgrades of stored data: numbered, each run once per prefix when the stores open. */
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { fieldOf } from '../../src/orders/columns.js';
import { Keys, queueNames } from '../../src/store/keys.js';
import { type Migration, runMigrations } from '../../src/store/migrations/migrations.js';
import { recordOfPairs } from '../../src/store/migrations/001-sheet-mapping.js';
import { rowStateOnJobs } from '../../src/store/migrations/002-row-state.js';
import { encodeProgress } from '../../src/store/row-progress.js';
import { SheetStore, sheetMapping } from '../../src/store/sheet-store.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

const silent = pino({ level: 'silent' });
const open: TestRedis[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.cleanup()));
});

async function testKeys(): Promise<{ redis: TestRedis; keys: Keys }> {
  const redis = await useTestRedis();
  open.push(redis);
  return { redis, keys: new Keys(`{${redis.prefix}}`) };
}

describe('the migrations', () => {
  it('run each once, in order, and are recorded as done', async () => {
    const { redis, keys } = await testKeys();
    const runs: number[] = [];
    const counting = (id: number): Migration => ({
      id,
      about: `migration ${id}`,
      run: async () => {
        runs.push(id);
        return 0;
      },
    });
    const list = [counting(1), counting(2)];
    expect(await runMigrations({ redis: redis.client, keys }, silent, list)).toEqual([1, 2]);
    expect(await runMigrations({ redis: redis.client, keys }, silent, list)).toEqual([]);
    expect(runs).toEqual([1, 2]);
    expect(await redis.client.hkeys(keys.migrations)).toEqual(['1', '2']);
  });

  it('run one added since the others ran, and only it', async () => {
    const { redis, keys } = await testKeys();
    await redis.client.hset(keys.migrations, '1', '2026-11-27T00:00:00.000Z');
    const runs: number[] = [];
    const list = [1, 2].map((id) => ({
      id,
      about: '',
      run: async () => {
        runs.push(id);
        return 0;
      },
    }));
    await runMigrations({ redis: redis.client, keys }, silent, list);
    expect(runs).toEqual([2]);
  });

  it('are numbered 1, 2, … with none twice', async () => {
    const { MIGRATIONS } = await import('../../src/store/migrations/migrations.js');
    expect(MIGRATIONS.map((m) => m.id)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});

describe("migration 1: a sheet's mapping stored as column pairs", () => {
  it('becomes the record of a flat file given to import, read as before', () => {
    const record = recordOfPairs(JSON.stringify([['straat', 'address1']]));
    expect(JSON.parse(record ?? 'null')).toEqual({
      source: { kind: 'flag', file: 'the file given to import' },
      json: { straat: 'address1' },
    });
  });

  it('leaves a record in this form, and what is not JSON, alone', () => {
    expect(recordOfPairs(JSON.stringify({ source: { kind: 'flag', file: 'm' }, json: {} }))).toBe(
      undefined,
    );
    expect(recordOfPairs('[[')).toBeUndefined();
  });

  it("rewrites every recorded sheet's pairs in Redis, and nothing else", async () => {
    const { redis, keys } = await testKeys();
    const store = new SheetStore(redis.client, keys);
    const sheet = (sheetId: string) => ({
      sheetId,
      path: `/in/${sheetId}.csv`,
      name: `${sheetId}.csv`,
      sha256: 'a'.repeat(64),
      origin: 'import',
      connectionId: 'c1',
      apiBaseUrl: 'http://api',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
    });
    await store.create(sheet('old'));
    await store.create(sheet('plain'));
    // As the version before the mapping's record wrote it.
    await redis.client.hset(keys.sheet('old'), 'mapping', JSON.stringify([['straat', 'address1']]));
    await redis.client.del(keys.migrations);

    expect(await runMigrations({ redis: redis.client, keys }, silent)).toContain(1);
    const old = await store.get('old');
    expect(old && fieldOf('Straat', sheetMapping(old)?.columns)).toBe('address1');
    expect(old && sheetMapping(old)?.source.kind).toBe('flag');
    expect(await redis.client.hexists(keys.sheet('plain'), 'mapping')).toBe(0);
  });
});

describe("migration 2: a row job's progress kept on the job by an older version", () => {
  const T = '2026-11-26T10:00:00.000Z';
  const CONNECTION = 'c1';

  /** A row job's data as an older version queued it: its progress in `state`. */
  const older = (row: number, state?: Record<string, unknown>) => ({
    connectionId: CONNECTION,
    sheetId: 's1',
    row,
    line: row + 1,
    key: null,
    order: { address: { state: 'not the job state' } },
    attachments: [{ path: 'docs/a.pdf', bytes: 9 }],
    ...(state !== undefined && { state }),
  });

  /**
   * A connection's rows queue holding older jobs in each state a job can be in at start-up:
   * active (its process stopped), failed, waiting, paused, delayed and prioritized, and one
   * queued by this version. Returns the job ids by what they are.
   */
  async function olderQueue(redis: TestRedis, keys: Keys) {
    const connection = { url: redis.url, maxRetriesPerRequest: null };
    const name = queueNames(CONNECTION).rows;
    const queue = new Queue(name, { connection, prefix: keys.prefix });
    const worker = new Worker(name, null, { connection, prefix: keys.prefix, autorun: false });
    try {
      await redis.client.hset(keys.connections, CONNECTION, '{}');
      await queue.add('row', older(1, { intent: { sentAt: T, attempt: 1 } }), {
        jobId: 'job-active',
      });
      await worker.getNextJob('stopped-process');
      await queue.add('row', older(2, { orderId: 7, fileIds: [11] }), { jobId: 'job-failed' });
      const failing = await worker.getNextJob('failing');
      await failing.moveToFailed(new Error('gave up'), 'failing', false);
      await queue.add('row', older(3, { waits: 3 }), { jobId: 'job-waiting' });
      await queue.add('row', older(4, { intent: { sentAt: T, attempt: 2 } }), {
        jobId: 'job-delayed',
        delay: 3_600_000,
      });
      await queue.add('row', older(5, { orderId: 9, fileIds: [12], resent: [0] }), {
        jobId: 'job-prioritized',
        priority: 1,
      });
      await queue.add('row', older(6), { jobId: 'job-this-version' });
      await queue.add('row', older(7, { intent: { sentAt: T, attempt: 1 } }), {
        jobId: 'job-final',
      });
      await queue.pause();
      await queue.add('row', older(8, { intent: { sentAt: T, attempt: 3 } }), {
        jobId: 'job-paused',
      });
      // What an older version recorded in Redis beside them: a claim that did not say when, an
      // answer that kept no files, a row final.
      await redis.client.hset(keys.creates('s1'), '4', 'sent|1.old', '5', 'answered|9|90');
      await redis.client.sadd(keys.final('s1'), '7');
    } finally {
      await worker.close();
      await queue.close();
    }
    return `${keys.prefix}:${name}`;
  }

  /** Every job's data and every row's entry, to compare two runs. */
  async function stored(redis: TestRedis, keys: Keys, queue: string) {
    const ids = ['active', 'failed', 'waiting', 'delayed', 'prioritized', 'this-version', 'final'];
    const data = await Promise.all(
      [...ids, 'paused'].map(async (id): Promise<[string, string | null]> => [
        id,
        await redis.client.hget(`${queue}:job-${id}`, 'data'),
      ]),
    );
    return {
      data: Object.fromEntries(data),
      entries: await redis.client.hgetall(keys.creates('s1')),
    };
  }

  it("moves each job's progress into its row's entry and leaves the job its input", async () => {
    const { redis, keys } = await testKeys();
    const queue = await olderQueue(redis, keys);
    const before = await redis.client.hget(`${queue}:job-this-version`, 'data');

    expect(await rowStateOnJobs.run({ redis: redis.client, keys })).toBe(7);
    const after = await stored(redis, keys, queue);
    expect(after.entries).toEqual({
      // A create sent with no answer stays one: never sent again.
      '1': `sent|older.1|${T}`,
      '2': encodeProgress({ orderId: 7, inspectionIds: [], fileIds: [11], resent: [] }),
      '4': `sent|1.old|${T}`,
      '5': encodeProgress({ orderId: 9, inspectionIds: [90], fileIds: [12], resent: [0] }),
      '8': `sent|older.3|${T}`,
    });
    for (const data of Object.values(after.data)) {
      expect(JSON.parse(String(data))).not.toHaveProperty('state');
      expect(JSON.parse(String(data))).toHaveProperty('order.address.state');
    }
    expect(after.data['this-version']).toBe(before);
  });

  it('changes nothing run again', async () => {
    const { redis, keys } = await testKeys();
    const queue = await olderQueue(redis, keys);
    await rowStateOnJobs.run({ redis: redis.client, keys });
    const once = await stored(redis, keys, queue);
    expect(await rowStateOnJobs.run({ redis: redis.client, keys })).toBe(0);
    expect(await stored(redis, keys, queue)).toEqual(once);
  });

  it('moves each job once, to the same end, when three processes run it together', async () => {
    const alone = await testKeys();
    const aloneQueue = await olderQueue(alone.redis, alone.keys);
    await rowStateOnJobs.run({ redis: alone.redis.client, keys: alone.keys });
    const expected = await stored(alone.redis, alone.keys, aloneQueue);

    const { redis, keys } = await testKeys();
    const queue = await olderQueue(redis, keys);
    const clients = [redis.client, redis.client.duplicate(), redis.client.duplicate()];
    try {
      // Each connected first, so that they start together.
      await Promise.all(clients.map((client) => client.ping()));
      const moved = await Promise.all(
        clients.map((client) => rowStateOnJobs.run({ redis: client, keys })),
      );
      expect(moved.reduce((a, b) => a + b)).toBe(7);
      expect(await stored(redis, keys, queue)).toEqual(expected);
    } finally {
      for (const client of clients.slice(1)) client.disconnect();
    }
  });
});
