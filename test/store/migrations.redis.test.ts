/** Upgrades of stored data: numbered, each run once per prefix when the stores open. */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { fieldOf } from '../../src/orders/columns.js';
import { Keys } from '../../src/store/keys.js';
import { type Migration, runMigrations } from '../../src/store/migrations/migrations.js';
import { recordOfPairs } from '../../src/store/migrations/001-sheet-mapping.js';
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
