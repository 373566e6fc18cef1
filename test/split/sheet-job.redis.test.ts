import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { Keys } from '../../src/store/keys.js';
import { Ledger } from '../../src/store/ledger.js';
import { runSheetJob, type SheetJobDeps } from '../../src/split/sheet-job.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import {
  recordTestSheet,
  TEST_CONNECTION_ID,
  testPipeline,
  waitForReport,
} from '../helpers/pipeline.js';

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

describe('a sheet job that dies part-way and runs again', () => {
  it('neither skips a row nor enqueues one twice', async () => {
    const keys = new Keys(`{${redis.prefix}}`);
    const store = new SheetStore(client, keys);
    const dir = await tempDir('checkpoint-');
    const rows = Array.from({ length: 1800 }, (_, i) =>
      sheetRow(i + 1, i % 100 === 7 ? { city: '' } : {}),
    );
    const path = await writeCsvSheet(dir, 'big.csv', rows);
    const sheetsDir = await tempDir('checkpoint-copies-');
    await recordTestSheet(store, 's-cp', path, sheetsDir);
    const added: string[] = [];
    let calls = 0;
    let dieAt = 2; // the second addBulk call fails, as if the process died there
    const deps: SheetJobDeps = {
      store,
      ledger: new Ledger(client, keys),
      catalogue: await loadCatalogue(defaultProductsFile()),
      maxAttachmentBytes: 1 << 20,
      connectionId: TEST_CONNECTION_ID,
      sheetsDir,
      rows: {
        addBulk: async (jobs) => {
          calls += 1;
          if (calls === dieAt) throw new Error('the process died');
          added.push(...jobs.map((j) => j.opts.jobId));
        },
        getWaitingCount: async () => 0,
      },
      queueReport: async () => undefined,
      hasRowJob: async () => false,
      logger: pino({ level: 'silent' }),
    };
    await expect(runSheetJob('s-cp', deps)).rejects.toThrow('the process died');
    dieAt = -1;
    await runSheetJob('s-cp', deps);

    const invalid = rows.filter((_, i) => i % 100 === 7).length;
    const valid = rows.length - invalid;
    // What the first run added before dying may be added again by the second run (BullMQ ignores
    // an id it holds); what matters is that every valid row is there, and nothing else.
    expect(new Set(added).size).toBe(valid);
    expect(added.length - new Set(added).size).toBeLessThanOrEqual(500); // at most the chunk in flight
    expect(added.every((id) => /^s-cp\.r\d+$/.test(id))).toBe(true);
    expect(await store.finalCount('s-cp')).toBe(invalid);
    expect((await store.get('s-cp'))?.total).toBe(rows.length);
  });
});

describe('--allow-duplicates', () => {
  it('creates orders again for rows imported before', async () => {
    const t = await testPipeline();
    try {
      const dir = await tempDir('allow-');
      const first = await writeCsvSheet(dir, 'a.csv', [sheetRow(1), sheetRow(2)]);
      const second = await writeCsvSheet(dir, 'b.csv', [sheetRow(1), sheetRow(2), sheetRow(3)]);
      await t.importSheet(first);
      const { sheetId } = await t.pipeline.enqueue(second, { allowDuplicates: true });
      const progress = await waitForReport(t.pipeline, sheetId);
      expect(progress.counts).toMatchObject({ created: 3, duplicate: 0 });
      expect(await t.sandbox.api.listOrders()).toHaveLength(5);
    } finally {
      await t.close();
    }
  });
});
