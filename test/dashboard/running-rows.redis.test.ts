import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runningRows } from '../../src/dashboard/sheet-rows.js';
import type { RowOutcome } from '../../src/glossary.js';
import { wordsFor } from '../../src/language/words.js';
import { Keys } from '../../src/store/keys.js';
import { sheetDetail } from '../../src/store/progress.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let client: Redis;
let store: SheetStore;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
  store = new SheetStore(client, new Keys(`{${redis.prefix}}`));
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

describe("a running sheet's rows", () => {
  it('are read from Redis: a page by row number, pending or ended, and by status', async () => {
    await store.create({
      sheetId: 'run',
      path: '/tmp/run.csv',
      name: 'run.csv',
      sha256: 'sha-run',
      connectionId: 'c1',
      connectionName: 'gent',
      apiBaseUrl: 'http://api.example.be',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
      duplicateOf: 'earlier',
    });
    await store.update('run', { state: 'processing', expected: 250 });
    const outcomes: Array<[number, RowOutcome]> = [];
    for (let row = 1; row <= 240; row += 2) {
      const invalid = row % 3 === 0;
      outcomes.push([
        row,
        invalid
          ? { status: 'invalid', attempts: 0, reference: `R-${row}`, error: 'city: required.' }
          : {
              status: 'created',
              attempts: 1,
              reference: `R-${row}`,
              orderId: row,
              fileIds: [5, null],
            },
      ]);
    }
    await store.finalize('run', outcomes);
    const sheet = await sheetDetail(store, 'run');
    expect(sheet).toMatchObject({ connection: 'gent', duplicateOf: 'earlier', total: 250 });
    if (sheet === undefined) return;

    const second = await runningRows(sheet, store, { status: undefined, page: 2 });
    expect(second.matching).toBe(250);
    expect(second.rows.map((r) => r.row)).toEqual(Array.from({ length: 100 }, (_, i) => 101 + i));
    expect(second.rows[0]).toMatchObject({
      row: 101,
      status: 'created',
      orderId: '101',
      fileIds: '5|',
    });
    expect(second.rows[1]).toMatchObject({ row: 102, status: 'pending', reference: '' });
    expect(second.note).toEqual({ ended: sheet.final });

    const invalid = await runningRows(sheet, store, { status: 'invalid', page: 1 });
    // Odd rows divisible by 3, up to 240: 3, 9, 15, … 237.
    expect(invalid.matching).toBe(40);
    expect(invalid.rows.map((r) => r.row).slice(0, 3)).toEqual([3, 9, 15]);
    expect(invalid.rows[0]).toMatchObject({ status: 'invalid', error: 'city: required.' });
  });

  it('say an API refusal of a row in the page’s words', async () => {
    await store.create({
      sheetId: 'refused',
      path: '/tmp/refused.csv',
      name: 'refused.csv',
      sha256: 'sha-refused',
      connectionId: 'c1',
      apiBaseUrl: 'http://api.example.be',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
    });
    await store.update('refused', { state: 'processing', expected: 2 });
    await store.finalize('refused', [
      [1, { status: 'failed', attempts: 1, fieldErrors: { city: ['This field is required.'] } }],
    ]);
    const sheet = await sheetDetail(store, 'refused');
    if (sheet === undefined) throw new Error('no sheet');
    const query = { status: undefined, page: 1 };
    const [english] = (await runningRows(sheet, store, query)).rows;
    expect(english?.error).toBe('the API refused the order: city: This field is required.');
    const [dutch] = (await runningRows(sheet, store, query, wordsFor('nl'))).rows;
    expect(dutch?.error).toBe('De API weigerde de opdracht: city: This field is required.');
  });
});
