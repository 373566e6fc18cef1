import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { Keys } from '../../src/store/keys.js';
import { Ledger } from '../../src/store/ledger.js';
import { Pipeline } from '../../src/queue/runtime.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { StoppingError } from '../../src/stopping.js';
import { sandboxRequests } from '../helpers/api.js';
import { tempDir } from '../helpers/files.js';
import {
  recordTestSheet,
  type TestPipeline,
  testPipeline,
  waitForReport,
  TEST_CONNECTION_ID,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('a graceful stop', () => {
  it('does not wait for rows that are only waiting for their turn; they resume elsewhere', async () => {
    // One request per 10 s: the rows after the first wait 10, 20, 30 s for their turn.
    const t = await testPipeline({ config: { apiRateLimit: 6 } });
    open.push(t);
    const dir = await tempDir('stopping-');
    const path = await writeCsvSheet(
      dir,
      'orders.csv',
      Array.from({ length: 6 }, (_, i) => sheetRow(i + 1)),
    );
    const { sheetId } = await t.pipeline.enqueue(path);
    while ((await t.sandbox.api.listOrders()).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Far longer than the test may take: only rows that give their wait back end it in time.
    await t.pipeline.close({ graceMs: 120_000 });
    expect(t.logs.join('')).not.toMatch(/job stopped; it resumes later/); // nothing was forced
    const sent = (await sandboxRequests(t.sandbox.api)).filter((r) => r.method === 'POST');
    expect(sent.length).toBeLessThan(6);

    // Another process, without the limit, finishes the sheet. The slots the first one reserved
    // would hold it back for half a minute; they are the rate limit's business, not this test's.
    const redis = new Redis(t.redis.url);
    await redis.del(new Keys(t.config.prefix).apiPace(t.config.connection.id));
    redis.disconnect();
    const next = await Pipeline.connect({ ...t.config, apiRateLimit: undefined });
    try {
      await next.startWorkers();
      const progress = await waitForReport(next, sheetId);
      expect(progress.counts.created).toBe(6);
    } finally {
      await next.close();
    }
    const orders = await t.sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `Contact ${i + 1}`).sort(),
    );
  });

  it('hands back a sheet job held up by a full queue, and it goes on from its checkpoint', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const client = new Redis(t.redis.url);
    try {
      const keys = new Keys(t.config.prefix);
      const store = new SheetStore(client, keys);
      const path = await writeCsvSheet(
        await tempDir('held-'),
        'big.csv',
        Array.from({ length: 1200 }, (_, i) => sheetRow(i + 1)),
      );
      const sheetsDir = await tempDir('held-copies-');
      await recordTestSheet(store, 's-held', path, sheetsDir);
      const added: string[] = [];
      let waiting = Number.POSITIVE_INFINITY;
      const stopping = new AbortController();
      const deps = {
        store,
        ledger: new Ledger(client, keys),
        catalogue: await loadCatalogue(defaultProductsFile()),
        maxAttachmentBytes: 1 << 20,
        connectionId: TEST_CONNECTION_ID,
        sheetsDir,
        rows: {
          addBulk: async (jobs: Array<{ opts: { jobId: string } }>) => {
            added.push(...jobs.map((j) => j.opts.jobId));
            setTimeout(() => {
              stopping.abort();
            }, 300);
          },
          getWaitingCount: async () => waiting,
        },
        queueReport: async () => undefined,
        hasRowJob: async () => false,
        logger: pino({ level: 'silent' }),
        highWater: 100,
        stopping: stopping.signal,
      };
      await expect(runSheetJob('s-held', deps)).rejects.toBeInstanceOf(StoppingError);
      expect(added.length).toBeLessThan(1200);
      waiting = 0;
      await runSheetJob('s-held', { ...deps, stopping: new AbortController().signal });
      expect(new Set(added).size).toBe(1200);
      expect(added).toHaveLength(1200); // the checkpoint: no row added twice
    } finally {
      client.disconnect();
    }
  });
});
