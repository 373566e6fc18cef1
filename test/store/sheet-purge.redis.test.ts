/**
 * What Redis keeps of a sheet, found and forgotten for retention (store/sheet-purge.ts), on a
 * real Redis under the test's own prefix: a sheet not yet reported is never a candidate, its
 * agenda entries go with it and no other sheet's, and a purge cut short after the sheet was
 * withdrawn is found and finished by the next one.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ReadEntry, readAgenda, recordAgenda } from '../../src/store/agenda.js';
import { Keys } from '../../src/store/keys.js';
import {
  forgetSheet,
  purgeCandidates,
  sheetKeys,
  withdrawSheet,
} from '../../src/store/sheet-purge.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

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

const OLD = '2020-01-01T00:00:00.000Z';
const scope = { before: Date.parse('2021-01-01'), connectionIds: ['c1'], installation: 'i1' };

async function sheet(sheetId: string, fields: Record<string, string>): Promise<void> {
  await client.hset(keys.sheet(sheetId), {
    sheetId,
    name: `${sheetId}.csv`,
    connectionId: 'c1',
    installation: 'i1',
    state: 'done',
    finishedAt: OLD,
    reportDir: `/reports/${sheetId}.csv-${sheetId}`,
    ...fields,
  });
  await client.hset(keys.results(sheetId), '1', '{}');
  await client.zadd(keys.allSheets, Date.parse(OLD), sheetId);
}

const inspection = (uid: string, sheetId: string): ReadEntry => ({
  uid,
  office: 'gent',
  sheetId,
  sheetName: 'orders',
  row: 1,
  reference: 'R-1',
  orderId: 1,
  productId: 'ELEC-1.1',
  productName: 'Elektrische keuring',
  date: '2026-12-01 11:00:00',
  inspector: 'Jan Peeters',
  status: 'scheduled',
  address: 'Kortrijksesteenweg 1, 9000 Gent',
  contact: 'An',
  phone: '+32 9 000 00 00',
  checkedAt: new Date().toISOString(),
});

describe('a sheet purged from Redis', () => {
  it('is reported, of the scope, and finished before its date; a running one never', async () => {
    await sheet('done-old', {});
    await sheet('running', { state: 'processing' });
    await sheet('recent', { finishedAt: '2022-01-01T00:00:00.000Z' });
    await sheet('other-office', { connectionId: 'c2' });
    await sheet('other-disk', { installation: 'i2' });
    const found = await purgeCandidates(client, keys, scope);
    expect(found.map((s) => s.sheetId)).toEqual(['done-old']);
    for (const id of ['done-old', 'running', 'recent', 'other-office', 'other-disk'])
      await client.del(...sheetKeys(keys, id)).then(() => client.zrem(keys.allSheets, id));
  });

  it('takes its own agenda entries with it, no other sheet’s', async () => {
    await sheet('s-agenda', {});
    await recordAgenda(
      client,
      keys,
      'c1',
      [inspection('1-A-1', 's-agenda'), inspection('2-A-1', 'another')],
      0,
    );
    const dry = await forgetSheet(client, keys, { sheetId: 's-agenda', connectionId: 'c1' }, true);
    expect(dry).toEqual({ keys: 2, agenda: 1 });
    expect(await client.exists(keys.sheet('s-agenda'))).toBe(1);
    await withdrawSheet(client, keys, 's-agenda');
    await forgetSheet(client, keys, { sheetId: 's-agenda', connectionId: 'c1' }, false);
    expect((await readAgenda(client, keys, ['c1'])).map((e) => e.uid)).toEqual(['2-A-1']);
    expect(await client.exists(...sheetKeys(keys, 's-agenda'))).toBe(0);
    await client.del(
      `{${redis.prefix}}:importer:agenda:c1`,
      `{${redis.prefix}}:importer:agenda:c1:checked`,
    );
  });

  it('cut short once withdrawn, is shown no more and found again by the next purge', async () => {
    await sheet('cut-short', {});
    await withdrawSheet(client, keys, 'cut-short');
    expect(await client.zscore(keys.allSheets, 'cut-short')).toBeNull();
    const found = await purgeCandidates(client, keys, scope);
    expect(found.map((s) => s.sheetId)).toEqual(['cut-short']);
    await forgetSheet(client, keys, { sheetId: 'cut-short', connectionId: 'c1' }, false);
    expect(await client.scard(keys.purging)).toBe(0);
    expect(await purgeCandidates(client, keys, scope)).toEqual([]);
  });
});
