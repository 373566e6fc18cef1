/**
 * The installation's marker in Redis (store/redis-marker.ts): a first use is marked, a data
 * folder used before with a Redis that has nothing of it is a Redis that forgot, and then no
 * create is claimed — checked in the claim's own script.
 */
import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { Ledger } from '../../src/store/ledger.js';
import { checkMarker, markerField } from '../../src/store/redis-marker.js';
import { RowProgress, sentEntry } from '../../src/store/row-progress.js';
import { SheetStore } from '../../src/store/sheet-store.js';
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

const installation = (created: boolean) => ({
  id: randomBytes(8).toString('hex'),
  createdAt: '2026-11-27T00:00:00.000Z',
  created,
});

describe('the marker checked at start', () => {
  it('marks a data folder new to this Redis, and knows it afterwards', async () => {
    const fresh = installation(true);
    expect(await checkMarker(client, keys, fresh, 'c1')).toBe('marked');
    expect(await checkMarker(client, keys, { ...fresh, created: false }, 'c1')).toBe('known');
  });

  it('marks a connection new to an installation this Redis knows', async () => {
    const used = installation(true);
    await checkMarker(client, keys, used, 'c1');
    expect(await checkMarker(client, keys, { ...used, created: false }, 'c2')).toBe('marked');
  });

  it('says a Redis forgot when the data folder was used before and it has nothing of it', async () => {
    expect(await checkMarker(client, keys, installation(false), 'c1')).toBe('forgot');
  });
});

/**
 * On a Cluster each office's marker is in its own key space, on its shard, and the installation's
 * in its home (the installation's prefix): a shard that lost an office's keys is told from an
 * office new to the installation. Shown here on one server, each space under a tag of its own.
 */
describe('the marker of an office in a key space of its own (a Cluster)', () => {
  const spaceOf = (office: string) => new Keys(`{${redis.prefix}:${office}}`);

  it('marks an office new to an installation this Redis knows, and knows it afterwards', async () => {
    const used = installation(true);
    expect(await checkMarker(client, spaceOf('o1'), used, 'o1', Date.now, keys)).toBe('marked');
    const later = { ...used, created: false };
    expect(await checkMarker(client, spaceOf('o1'), later, 'o1', Date.now, keys)).toBe('known');
    expect(await checkMarker(client, spaceOf('o2'), later, 'o2', Date.now, keys)).toBe('marked');
    expect(await client.hexists(spaceOf('o2').installations, markerField(used.id, 'o2'))).toBe(1);
  });

  it('says Redis forgot when the office’s own space lost its marker, whatever the home says', async () => {
    const used = installation(true);
    await checkMarker(client, spaceOf('o3'), used, 'o3', Date.now, keys);
    // The shard of o3 came back empty; the home, on another, kept the installation's marker.
    await client.del(spaceOf('o3').installations);
    const later = { ...used, created: false };
    expect(await checkMarker(client, spaceOf('o3'), later, 'o3', Date.now, keys)).toBe('forgot');
  });

  it('says Redis forgot an installation used before whose home has nothing of it', async () => {
    const later = installation(false);
    expect(await checkMarker(client, spaceOf('o4'), later, 'o4', Date.now, keys)).toBe('forgot');
  });
});

describe('a create claimed in a Redis that lost the installation’s data', () => {
  it('is refused by the first step and by a claim alone; once marked, it is claimed', async () => {
    const ledger = new Ledger(client, keys, { connectionId: 'c9', ledgerDays: 400, now: Date.now });
    const used = installation(false);
    const progress = new RowProgress(client, keys, ledger, markerField(used.id, 'c9'));
    const me = { sheetId: 'forgot', row: 1 };
    const claim = sentEntry('1.aaaa', '2026-11-27T10:00:00.000Z');
    await expect(progress.begin(me, { key: 'k', claim })).rejects.toThrow(
      knownError('Refused', 'redis.forgot'),
    );
    await expect(progress.claim(me, claim)).rejects.toThrow(knownError('Refused', 'redis.forgot'));
    expect(await ledger.lookup('k')).toBeUndefined();
    await client.hset(keys.installations, markerField(used.id, 'c9'), 'now');
    expect(await progress.begin(me, { key: 'k', claim })).toEqual({ kind: 'claimed' });
  });
});

describe('a sheet Redis came back without', () => {
  it('is unknown, not a crash, when only counters written since are left of its record', async () => {
    await client.hincrby(keys.sheet('lost'), 'created', 1);
    expect(await new SheetStore(client, keys).get('lost')).toBeUndefined();
  });
});
