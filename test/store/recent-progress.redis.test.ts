/**
 * The dashboard's sheets of one installation (docs/design.md "One installation, one namespace"):
 * only its connections' sheets, the latest of them, however many of another installation sharing
 * the Redis are newer.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { recentProgress } from '../../src/store/progress.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let client: Redis;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

const OURS = 'aaaaaaaaaaaaaaaa';
const THEIRS = 'bbbbbbbbbbbbbbbb';

async function record(store: SheetStore, sheetId: string, connectionId: string, at: number) {
  await store.create({
    sheetId,
    path: `/x/${sheetId}.csv`,
    name: `${sheetId}.csv`,
    sha256: sheetId,
    connectionId,
    apiBaseUrl: 'http://api',
    sandbox: false,
    allowDuplicates: false,
    startedAt: new Date(Date.parse('2026-11-26T10:00:00Z') + at * 1000).toISOString(),
  });
}

describe('the latest sheets of some connections', () => {
  it('skips newer sheets of other connections to find the latest own ones', async () => {
    const store = new SheetStore(client, new Keys(`{${redis.prefix}}`));
    await record(store, 'ours-1', OURS, 1);
    await record(store, 'ours-2', OURS, 2);
    for (let n = 0; n < 12; n++) await record(store, `theirs-${n}`, THEIRS, 10 + n);

    const own = await recentProgress(store, 2, new Set([OURS]));
    expect(own.map((s) => s.sheetId)).toEqual(['ours-2', 'ours-1']);
    expect((await recentProgress(store, 1, new Set([OURS]))).map((s) => s.sheetId)).toEqual([
      'ours-2',
    ]);
    expect(await recentProgress(store, 5, new Set(['cccccccccccccccc']))).toEqual([]);
    expect(await recentProgress(store, 3)).toHaveLength(3);
  });

  it('reads on past a batch of other connections’ sheets', async () => {
    const store = new SheetStore(client, new Keys(`{${redis.prefix}}-many`));
    await record(store, 'ours-old', OURS, 1);
    await Promise.all(
      Array.from({ length: 520 }, (_, n) => record(store, `theirs-${n}`, THEIRS, 10 + n)),
    );
    expect((await recentProgress(store, 3, new Set([OURS]))).map((s) => s.sheetId)).toEqual([
      'ours-old',
    ]);
  });
});
