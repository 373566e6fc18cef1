/**
 * A row's progress in Redis (store/row-progress.ts): the first step of a row job in one script —
 * final?, what is stored, its ledger key, its create's claim — and the answer written with the
 * ledger's entry.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { Ledger } from '../../src/store/ledger.js';
import { RowProgress, sentEntry } from '../../src/store/row-progress.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let client: Redis;
let keys: Keys;
let ledger: Ledger;
let progress: RowProgress;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
  keys = new Keys(`{${redis.prefix}}`);
  ledger = new Ledger(client, keys, { connectionId: 'c1', ledgerDays: 400, now: Date.now });
  progress = new RowProgress(client, keys, ledger);
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

const claim = (token: string) => sentEntry(token, '2026-11-26T10:00:00.000Z');

describe('a create claim sent twice by the same attempt (a reply lost to a Redis restart)', () => {
  it('comes back as that attempt’s own claim, through the first step and through a claim alone', async () => {
    const me = { sheetId: 'resent', row: 7 };
    const mine = claim('1.aaaaaa');
    expect(await progress.begin(me, { key: null, claim: mine })).toEqual({ kind: 'claimed' });
    expect(await progress.begin(me, { key: null, claim: mine })).toEqual({
      kind: 'progress',
      progress: { kind: 'sent', claim: mine, sentAt: '2026-11-26T10:00:00.000Z' },
    });
    expect(await progress.claim(me, mine)).toMatchObject({ kind: 'sent', claim: mine });
  });

  it('is another attempt’s for anyone else, and only its holder gives it back', async () => {
    const me = { sheetId: 'other', row: 3 };
    expect(await progress.claim(me, claim('1.bbbbbb'))).toBeUndefined();
    expect(await progress.claim(me, claim('2.cccccc'))).toMatchObject({
      kind: 'sent',
      claim: claim('1.bbbbbb'),
    });
    await progress.unclaim(me, claim('2.cccccc'));
    expect(await progress.read(me)).toMatchObject({ claim: claim('1.bbbbbb') });
    await progress.unclaim(me, claim('1.bbbbbb'));
    expect(await progress.read(me)).toEqual({ kind: 'none' });
  });
});

describe('the first step of a row', () => {
  it('says a row final, or of a sheet already reported, before anything else', async () => {
    await client.sadd(keys.final('final'), '2');
    await client.hset(keys.sheet('reported'), 'reportDir', '/r');
    for (const me of [
      { sheetId: 'final', row: 2 },
      { sheetId: 'reported', row: 1 },
    ]) {
      expect(await progress.begin(me, { key: 'k|ref|F', claim: claim('1.dddddd') })).toEqual({
        kind: 'final',
      });
      expect(await progress.read(me)).toEqual({ kind: 'none' });
    }
    expect(await ledger.lookup('k|ref|F')).toBeUndefined();
  });

  it('claims the key and the create together, and the next row with that key finds it busy, then a duplicate', async () => {
    const first = { sheetId: 'L', row: 1 };
    const second = { sheetId: 'L', row: 2 };
    expect(await progress.begin(first, { key: 'k|ref|R-1', claim: claim('1.eeeeee') })).toEqual({
      kind: 'claimed',
    });
    const busy = await progress.begin(second, { key: 'k|ref|R-1', claim: claim('1.ffffff') });
    expect(busy.kind).toBe('ledger');
    expect(await ledger.verdict(busy.kind === 'ledger' ? busy.entry : '', second)).toEqual({
      kind: 'busy',
      ...first,
    });
    expect(await progress.read(second)).toEqual({ kind: 'none' });
    await progress.answered(
      first,
      { orderId: 41, inspectionIds: [9], fileIds: [null] },
      'k|ref|R-1',
    );
    const again = await progress.begin(second, { key: 'k|ref|R-1' });
    expect(await ledger.verdict(again.kind === 'ledger' ? again.entry : '', second)).toEqual({
      kind: 'duplicate',
      orderId: 41,
      ...first,
    });
  });

  it('gives a resumed row what its earlier attempt stored: its claim held, its order and files', async () => {
    const me = { sheetId: 'R', row: 5 };
    expect(await progress.begin(me, { key: 'k|ref|R-5' })).toEqual({ kind: 'free' });
    // Its own pending entry in the ledger does not stop it.
    expect(await progress.begin(me, { key: 'k|ref|R-5', claim: claim('2.111111') })).toEqual({
      kind: 'claimed',
    });
    await progress.answered(
      me,
      { orderId: 77, inspectionIds: [1, 2], fileIds: [501, null], resent: [0], uploading: 1 },
      'k|ref|R-5',
    );
    expect(await progress.begin(me, { key: 'k|ref|R-5', claim: claim('3.222222') })).toEqual({
      kind: 'progress',
      progress: {
        kind: 'answered',
        orderId: 77,
        inspectionIds: [1, 2],
        fileIds: [501, null],
        resent: [0],
        uploading: 1,
      },
    });
  });
});

describe('the answer written days after the claim (a job resumed after a stopped weekend)', () => {
  it('keeps the ledger’s shape and sheet numbers as long as the created entry it writes', async () => {
    const DAY = 86_400_000;
    let now = Date.UTC(2026, 10, 20, 12);
    const days = 400;
    const own = new Ledger(client, keys, {
      connectionId: 'c-expiry',
      ledgerDays: days,
      now: () => now,
    });
    const rows = new RowProgress(client, keys, own);
    const shape = keys.ledgerOf('c-expiry');
    const me = { sheetId: 'W', row: 1 };
    expect(await rows.begin(me, { key: 'k|ref|W-1' })).toEqual({ kind: 'free' });
    // Two days pass before the create is answered: the keys the claim kept alive have two days
    // less to live than when it wrote them.
    for (const key of [shape, `${shape}:sheets`]) await client.pexpire(key, (days + 1 - 2) * DAY);
    now += 2 * DAY;
    await rows.answered(me, { orderId: 5, inspectionIds: [], fileIds: [] }, 'k|ref|W-1');
    // The entry is written today and lives LEDGER_DAYS from today: its shard, its shape and its
    // sheet numbers must too, or a lookup on its last days looks in the wrong shard.
    for (const key of [shape, `${shape}:sheets`]) {
      expect(await client.pttl(key)).toBeGreaterThanOrEqual(days * DAY);
    }
  });
});
