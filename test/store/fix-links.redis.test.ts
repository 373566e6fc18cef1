import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let store: SheetStore;

beforeEach(async () => {
  redis = await useTestRedis();
  store = new SheetStore(redis.client, new Keys(`{${redis.prefix}}`));
});
afterEach(() => redis.cleanup());

describe("the store's links between a sheet and its fixes", () => {
  it('keeps, per original row, the first sheet that fixed it, and counts them', async () => {
    expect(
      await store.fixes.record('A', 'F1', [
        [2, 'invalid'],
        [5, 'failed'],
      ]),
    ).toBe(2);
    // Dropped again, or another fix of the same row: the first fix stays.
    expect(
      await store.fixes.record('A', 'F2', [
        [2, 'invalid'],
        [7, 'invalid'],
      ]),
    ).toBe(1);
    expect(await store.fixes.of('A')).toEqual({
      fixed: { invalid: 2, failed: 1 },
      by: [
        { sheetId: 'F1', rows: 2 },
        { sheetId: 'F2', rows: 1 },
      ],
    });
    expect(await store.fixes.of('F1')).toEqual({
      fixes: 'A',
      fixed: { invalid: 0, failed: 0 },
      by: [],
    });
    expect(await store.fixes.rowsOf('A')).toEqual(
      new Map([
        [2, 'F1'],
        [5, 'F1'],
        [7, 'F2'],
      ]),
    );
  });
});
