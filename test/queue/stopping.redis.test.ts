import { afterEach, describe, expect, it } from 'vitest';

import { openContext } from '../../src/context.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { sandboxRequests } from '../helpers/api.js';
import { tempDir } from '../helpers/files.js';
import {
  recordTestSheet,
  type TestPipeline,
  testPipeline,
  waitForReport,
  withRowsQueue,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { submitSheet } from '../../src/intake/submit.js';
import { closeContext } from '../../src/workers/stop.js';
import { startWorkers } from '../../src/workers/start.js';
import { knownError } from '../helpers/known-error.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('a graceful stop', () => {
  it('does not wait for rows that are only waiting for their turn; they resume elsewhere', async () => {
    // One request per 10 s: the rows after the first wait 10, 20, 30 s for their turn.
    const t = await testPipeline({ settings: { apiRateLimit: 6 } });
    open.push(t);
    const dir = await tempDir('stopping-');
    const path = await writeCsvSheet(
      dir,
      'orders.csv',
      Array.from({ length: 6 }, (_, i) => sheetRow(i + 1)),
    );
    const { sheetId } = await submitSheet(t.ctx, path);
    while ((await t.sandbox.api.listOrders()).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Far longer than the test may take: only rows that give their wait back end it in time.
    await closeContext(t.ctx, { graceMs: 120_000 });
    expect(t.logs.join('')).not.toMatch(/job stopped; it resumes later/); // nothing was forced
    const sent = (await sandboxRequests(t.sandbox.api)).filter((r) => r.method === 'POST');
    expect(sent.length).toBeLessThan(6);

    // Another process, without the limit, finishes the sheet. The slots the first one reserved
    // would hold it back for half a minute; they are the rate limit's business, not this test's.
    const next = await openContext({
      ...t.config,
      settings: { ...t.config.settings, apiRateLimit: undefined },
    });
    try {
      await next.redis.del(next.keys.apiPace(next.connection.id));
      await startWorkers(next);
      const progress = await waitForReport(next, sheetId);
      expect(progress.counts.created).toBe(6);
    } finally {
      await closeContext(next);
    }
    const orders = await t.sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `Contact ${i + 1}`).sort(),
    );
  });

  it('hands back a sheet job held up by a full queue, and it goes on from its checkpoint', async () => {
    const t = await testPipeline({ workers: false, settings: { rowsHighWater: 100 } });
    open.push(t);
    const path = await writeCsvSheet(
      await tempDir('held-'),
      'big.csv',
      Array.from({ length: 1200 }, (_, i) => sheetRow(i + 1)),
    );
    await recordTestSheet(
      t.ctx.store,
      's-held',
      path,
      t.ctx.settings.sheetsDir,
      t.ctx.connection.id,
    );
    const added: string[] = [];
    let waiting = Number.POSITIVE_INFINITY;
    const stop = { ...t.ctx.stop, stopping: new AbortController(), now: new AbortController() };
    const ctx = withRowsQueue(
      { ...t.ctx, stop },
      {
        addBulk: async (jobs) => {
          added.push(...jobs.map((j) => j.opts?.jobId ?? ''));
          setTimeout(() => {
            stop.stopping.abort();
          }, 300);
          return [];
        },
        getJobCountByTypes: async () => waiting,
      },
    );
    await expect(runSheetJob(ctx, 's-held')).rejects.toThrow(
      knownError('NotYet', 'process.stopping'),
    );
    expect(added.length).toBeLessThan(1200);
    waiting = 0;
    await runSheetJob({ ...ctx, stop: { ...stop, stopping: new AbortController() } }, 's-held');
    expect(new Set(added).size).toBe(1200);
    expect(added).toHaveLength(1200); // the checkpoint: no row added twice
  });
});
