import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ReadEntry, mergeEntry, readAgenda, recordAgenda } from '../../src/store/agenda.js';
import { Keys } from '../../src/store/keys.js';
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

const entry = (over: Partial<ReadEntry> = {}): ReadEntry => ({
  uid: '100001-ELEC-1.1-1',
  office: 'gent',
  sheetId: 's1',
  sheetName: 'orders',
  row: 2,
  reference: 'R-1',
  orderId: 100001,
  productId: 'ELEC-1.1',
  productName: 'Elektrische keuring',
  date: '2026-12-01 11:00:00',
  inspector: 'Jan Peeters',
  status: 'scheduled',
  address: 'Kortrijksesteenweg 1, 9000 Gent',
  contact: 'An',
  phone: '+32 9 000 00 00',
  checkedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

describe('an agenda entry kept', () => {
  it('starts at sequence 0, raised only when the date or the inspector changes', () => {
    const first = mergeEntry(undefined, entry());
    expect(first.sequence).toBe(0);
    expect(mergeEntry(first, entry({ status: 'done' })).sequence).toBe(0);
    const moved = mergeEntry(first, entry({ date: '2026-12-02 11:00:00' }));
    expect(moved.sequence).toBe(1);
    expect(
      mergeEntry(moved, entry({ date: '2026-12-02 11:00:00', inspector: 'Zoë' })).sequence,
    ).toBe(2);
  });

  it('remembers when it was first seen cancelled, and forgets it when it is not', () => {
    const first = mergeEntry(undefined, entry({ status: 'cancelled' }));
    expect(first.cancelledAt).toBe('2026-11-27T10:00:00.000Z');
    const later = mergeEntry(
      first,
      entry({ status: 'cancelled', checkedAt: '2026-11-28T10:00:00.000Z' }),
    );
    expect(later.cancelledAt).toBe('2026-11-27T10:00:00.000Z');
    expect(mergeEntry(later, entry()).cancelledAt).toBeUndefined();
  });
});

describe('the agenda in Redis', () => {
  it('keeps each inspection by UID per connection, and trims those not read back for long', async () => {
    const keys = new Keys(`{${redis.prefix}}`);
    await recordAgenda(client, keys, 'c1', [entry()], 0);
    await recordAgenda(client, keys, 'c1', [entry({ date: '2026-12-03 09:00:00' })], 0);
    await recordAgenda(
      client,
      keys,
      'c2',
      [entry({ uid: 'x', checkedAt: '2026-01-01T00:00:00Z' })],
      0,
    );
    const both = await readAgenda(client, keys, ['c1', 'c2']);
    expect(both.map((e) => [e.uid, e.sequence])).toEqual([
      ['100001-ELEC-1.1-1', 1],
      ['x', 0],
    ]);
    await recordAgenda(client, keys, 'c2', [], Date.parse('2026-06-01T00:00:00Z'));
    expect(await readAgenda(client, keys, ['c2'])).toEqual([]);
    expect(await readAgenda(client, keys, ['c1'])).toHaveLength(1);
  });
});
