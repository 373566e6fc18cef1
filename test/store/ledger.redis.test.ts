/**
 * The duplicates ledger (store/ledger.ts): one order per row key, kept compact, and forgotten
 * LEDGER_DAYS after it was made. Its clock is the context's `now`, moved here by whole days.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { Ledger, ledgerKey } from '../../src/store/ledger.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

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

/** A ledger whose clock reads `day` days after START (or what `clock.day` says when it moves). */
function ledgerAt(day: number, options: { connectionId?: string; ledgerDays?: number } = {}) {
  const clock = { day };
  const ledger = new Ledger(client, keys, {
    connectionId: options.connectionId ?? 'c1',
    ledgerDays: options.ledgerDays ?? 400,
    now: () => START + clock.day * DAY,
  });
  return Object.assign(ledger, { clock });
}

/** Every key this connection's ledger holds, with its Redis memory. */
async function ledgerKeys(connectionId: string): Promise<Array<{ key: string; bytes: number }>> {
  const found = await client.keys(`${keys.ledgerOf(connectionId)}*`);
  return Promise.all(
    found.map(async (key) => ({
      key,
      bytes: Number(await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')),
    })),
  );
}

describe('Ledger', () => {
  const key = 'scope|ref|R-1';

  it('lets one row claim a key; others see it busy, then a duplicate of its order', async () => {
    const ledger = ledgerAt(0);
    const a = { sheetId: 'A', row: 1 };
    const b = { sheetId: 'B', row: 4 };
    const claims = await Promise.all([ledger.claim(key, a), ledger.claim(key, b)]);
    expect(claims.map((c) => c.kind).sort()).toEqual(['busy', 'mine']);
    const owner = claims[0].kind === 'mine' ? a : b;
    const other = owner === a ? b : a;
    expect(await ledger.claim(key, owner)).toEqual({ kind: 'mine' });
    await ledger.confirm(key, owner, 555);
    expect(await ledger.claim(key, other)).toEqual({ kind: 'duplicate', orderId: 555, ...owner });
  });

  it('frees a key only for the row that holds it', async () => {
    const ledger = ledgerAt(0);
    const k = 'scope|ref|R-2';
    const a = { sheetId: 'A', row: 2 };
    await ledger.claim(k, a);
    await ledger.release(k, { sheetId: 'A', row: 22 });
    expect(await ledger.lookup(k)).toMatchObject({ state: 'pending', ref: a });
    await ledger.release(k, a);
    expect(await ledger.lookup(k)).toBeUndefined();
  });

  it('sends later rows of an unknown outcome to review', async () => {
    const ledger = ledgerAt(0);
    const k = 'scope|ref|R-3';
    await ledger.claim(k, { sheetId: 'A', row: 3 });
    await ledger.markUnknown(k, { sheetId: 'A', row: 3 });
    expect(await ledger.claim(k, { sheetId: 'B', row: 1 })).toEqual({
      kind: 'unknown',
      sheetId: 'A',
      row: 3,
    });
  });

  it('keys rows by reference, else by what they would send', () => {
    const order = { city: 'Gent', address1: 'Kerkstraat' };
    expect(ledgerKey('api', { reference: 'R-1', order, files: [] })).toBe('api|ref|R-1');
    const fp = ledgerKey('api', { order, files: ['a.pdf'] });
    expect(fp).toMatch(/^api\|fp\|[0-9a-f]{64}$/);
    expect(
      ledgerKey('api', { order: { address1: 'Kerkstraat', city: 'Gent' }, files: ['a.pdf'] }),
    ).toBe(fp);
    expect(ledgerKey('api', { order, files: ['b.pdf'] })).not.toBe(fp);
    expect(ledgerKey('other', { order, files: ['a.pdf'] })).not.toBe(fp);
  });
});

describe('Ledger, over LEDGER_DAYS', () => {
  it('forgets an order once LEDGER_DAYS have passed since it was made: imported again', async () => {
    const ledger = ledgerAt(0, { connectionId: 'exp', ledgerDays: 3 });
    const made = { sheetId: 'A', row: 1 };
    await ledger.claim('exp|ref|R-1', made);
    await ledger.confirm('exp|ref|R-1', made, 71);
    ledger.clock.day = 2;
    await ledger.claim('exp|ref|R-2', { sheetId: 'B', row: 2 });
    await ledger.confirm('exp|ref|R-2', { sheetId: 'B', row: 2 }, 72);
    expect(await ledger.claim('exp|ref|R-1', { sheetId: 'B', row: 1 })).toEqual({
      kind: 'duplicate',
      orderId: 71,
      ...made,
    });
    // Made on day 0: remembered through day 3 (whole days), gone on day 4.
    ledger.clock.day = 3;
    expect(await ledger.lookup('exp|ref|R-1')).toMatchObject({ orderId: 71 });
    ledger.clock.day = 4;
    expect(await ledger.lookup('exp|ref|R-1')).toBeUndefined();
    expect(await ledger.claim('exp|ref|R-1', { sheetId: 'C', row: 1 })).toEqual({ kind: 'mine' });
    // Made on day 2: still remembered on day 4, and on day 5, then gone.
    expect(await ledger.claim('exp|ref|R-2', { sheetId: 'C', row: 2 })).toMatchObject({
      kind: 'duplicate',
      orderId: 72,
    });
    ledger.clock.day = 6;
    expect(await ledger.claim('exp|ref|R-2', { sheetId: 'D', row: 2 })).toEqual({ kind: 'mine' });
  });

  it('keeps an order made late in its day for LEDGER_DAYS whole, and forgets it within a day after', async () => {
    const ledger = ledgerAt(0.999, { connectionId: 'late', ledgerDays: 3 });
    const made = { sheetId: 'A', row: 1 };
    await ledger.claim('late|ref|R-1', made);
    await ledger.confirm('late|ref|R-1', made, 81);
    // Made at 23:58 on day 0: two and a half days later is well within its three days.
    ledger.clock.day = 3.5;
    expect(await ledger.claim('late|ref|R-1', { sheetId: 'B', row: 1 })).toEqual({
      kind: 'duplicate',
      orderId: 81,
      ...made,
    });
    ledger.clock.day = 3.999;
    expect(await ledger.lookup('late|ref|R-1')).toMatchObject({ orderId: 81 });
    ledger.clock.day = 4;
    expect(await ledger.lookup('late|ref|R-1')).toBeUndefined();
  });

  it('lets Redis drop whole what nothing was written to for LEDGER_DAYS', async () => {
    const ledger = ledgerAt(0, { connectionId: 'ttl', ledgerDays: 7 });
    await ledger.claim('ttl|ref|R-1', { sheetId: 'A', row: 1 });
    const held = await ledgerKeys('ttl');
    expect(held.length).toBeGreaterThanOrEqual(3);
    for (const { key } of held) {
      const ttl = await client.pttl(key);
      expect(ttl, key).toBeGreaterThan(7 * DAY);
      expect(ttl, key).toBeLessThanOrEqual(8 * DAY);
    }
  });

  it('drops entries past LEDGER_DAYS as it grows, and finds every other', async () => {
    const ledger = ledgerAt(0, { connectionId: 'grow', ledgerDays: 10 });
    const old = Array.from({ length: 3000 }, (_, i) => `grow|ref|old-${i}`);
    await Promise.all(old.map((k, i) => ledger.confirm(k, { sheetId: 'A', row: i + 1 }, i + 1)));
    ledger.clock.day = 11;
    const fresh = Array.from({ length: 6000 }, (_, i) => `grow|ref|new-${i}`);
    await Promise.all(fresh.map((k, i) => ledger.confirm(k, { sheetId: 'B', row: i + 1 }, i + 1)));
    const found = await Promise.all([...old, ...fresh].map((k) => ledger.lookup(k)));
    expect(found.slice(0, old.length).filter(Boolean)).toHaveLength(0);
    expect(found.slice(old.length).map((e) => e?.orderId)).toEqual(fresh.map((_, i) => i + 1));
    const shape = await client.hgetall(keys.ledgerOf('grow'));
    const shards = (await ledgerKeys('grow')).filter(({ key }) => /:\d+$/.test(key));
    let entries = 0;
    for (const { key } of shards) entries += await client.hlen(key);
    expect(Number(shape.n)).toBe(entries);
    expect(entries).toBeLessThan(old.length + fresh.length);
  });

  it('keeps each row in a few dozen bytes of Redis memory', async () => {
    const ledger = ledgerAt(0, { connectionId: 'size' });
    const rows = 10_000;
    await Promise.all(
      Array.from({ length: rows }, (_, i) =>
        ledger.confirm(
          `size|ref|REF-${i}`,
          { sheetId: '01J0SHEETIDLONGENOUGH', row: i + 2 },
          1e6 + i,
        ),
      ),
    );
    const held = await ledgerKeys('size');
    const shards = held.filter(({ key }) => /:\d+$/.test(key));
    for (const { key } of shards.slice(0, 20))
      expect(await client.object('ENCODING', key)).toBe('listpack');
    const bytes = held.reduce((sum, { bytes }) => sum + bytes, 0);
    expect(bytes / rows).toBeLessThan(64);
  });

  it('keeps connections apart', async () => {
    const first = ledgerAt(0, { connectionId: 'one' });
    const second = ledgerAt(0, { connectionId: 'two' });
    await first.claim('same|ref|R-1', { sheetId: 'A', row: 1 });
    await first.confirm('same|ref|R-1', { sheetId: 'A', row: 1 }, 9);
    expect(await second.claim('same|ref|R-1', { sheetId: 'B', row: 1 })).toEqual({ kind: 'mine' });
    expect(await first.claim('same|ref|R-1', { sheetId: 'B', row: 1 })).toMatchObject({
      kind: 'duplicate',
      orderId: 9,
      sheetId: 'A',
    });
  });

  it('names the sheet of an earlier order to a process that never saw it', async () => {
    const writer = ledgerAt(0, { connectionId: 'names' });
    await writer.confirm('names|ref|R-1', { sheetId: 'sheet-from-elsewhere', row: 7 }, 31);
    const reader = ledgerAt(0, { connectionId: 'names' });
    expect(await reader.claim('names|ref|R-1', { sheetId: 'mine', row: 1 })).toEqual({
      kind: 'duplicate',
      orderId: 31,
      sheetId: 'sheet-from-elsewhere',
      row: 7,
    });
  });
});
