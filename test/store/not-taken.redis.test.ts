import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { NotTaken } from '../../src/store/not-taken.js';
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

describe('the list of sheets not taken', () => {
  it('gives the latest first, and keeps only the latest few', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const list = new NotTaken(client, new Keys(`{${redis.prefix}}`), { keep: 3, now: () => now });
    for (const n of [1, 2, 3, 4]) {
      await list.add(`/inbox/s${n}.csv`, `reason ${n}`);
      now += 1000;
    }
    expect(await list.recent(2)).toEqual([
      { path: '/inbox/s4.csv', reason: 'reason 4', at: '2026-11-26T10:00:03.000Z' },
      { path: '/inbox/s3.csv', reason: 'reason 3', at: '2026-11-26T10:00:02.000Z' },
    ]);
    expect((await list.recent(10)).map((e) => e.path)).toEqual([
      '/inbox/s4.csv',
      '/inbox/s3.csv',
      '/inbox/s2.csv',
    ]);
  });

  it('skips an entry it cannot read rather than failing the list', async () => {
    const keys = new Keys(`{${redis.prefix}}-bad`);
    const list = new NotTaken(client, keys);
    await list.add('/inbox/ok.csv', 'fine');
    await client.lpush(keys.notTaken, 'not json', JSON.stringify({ path: 1 }));
    expect((await list.recent(10)).map((e) => e.path)).toEqual(['/inbox/ok.csv']);
  });

  it('lists a path once, with what was last said of it, and no longer once it is taken', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const list = new NotTaken(client, new Keys(`{${redis.prefix}}-once`), { now: () => now });
    await list.add('/inbox/a.csv', 'its mapping.json is not JSON');
    await list.add('/inbox/b.csv', 'a symbolic link');
    now += 1000;
    await list.add('/inbox/a.csv', 'a workbook');
    expect(await list.recent(10)).toEqual([
      { path: '/inbox/a.csv', reason: 'a workbook', at: '2026-11-26T10:00:01.000Z' },
      { path: '/inbox/b.csv', reason: 'a symbolic link', at: '2026-11-26T10:00:00.000Z' },
    ]);
    await list.taken('/inbox/a.csv');
    await list.taken('/inbox/never-listed.csv');
    expect((await list.recent(10)).map((e) => e.path)).toEqual(['/inbox/b.csv']);
  });

  it('names the connection whose intake did not take a sheet, and lists only the connections asked', async () => {
    const keys = new Keys(`{${redis.prefix}}-apart`);
    const now = () => Date.parse('2026-11-26T10:00:00Z');
    const gent = new NotTaken(client, keys, { now, connectionId: 'aaaaaaaaaaaaaaaa' });
    const brugge = new NotTaken(client, keys, { now, connectionId: 'bbbbbbbbbbbbbbbb' });
    await gent.add('/gent/inbox/a.csv', 'a symbolic link');
    await brugge.add('/brugge/inbox/b.csv', 'a workbook');
    // An entry an older version wrote names no connection: it is no installation's to show.
    await client.lpush(keys.notTaken, JSON.stringify({ path: '/old.csv', reason: 'x', at: 'y' }));
    expect(await gent.recent(10, new Set(['aaaaaaaaaaaaaaaa']))).toEqual([
      {
        path: '/gent/inbox/a.csv',
        reason: 'a symbolic link',
        at: '2026-11-26T10:00:00.000Z',
        connectionId: 'aaaaaaaaaaaaaaaa',
      },
    ]);
    expect((await gent.recent(10)).map((e) => e.path)).toEqual([
      '/old.csv',
      '/brugge/inbox/b.csv',
      '/gent/inbox/a.csv',
    ]);
  });
});
