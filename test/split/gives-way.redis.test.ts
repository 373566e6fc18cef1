/**
 * A sheet job held back by a full rows queue (src/split/backpressure.ts) gives its place up to a
 * sheet job never worked yet, and to no other: a process works two sheet jobs at once, and two
 * big sheets held back must not keep a third sheet from being worked at all, nor two held jobs
 * hand each other back in turn.
 */
import { type Job, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';

import { bullConnection, queueSheet } from '../../src/queue/queues.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';
import {
  recordTestSheet,
  type TestPipeline,
  testPipeline,
  withRowsQueue,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A pipeline without workers, a big sheet recorded as resumed after 50 rows, none final. */
async function heldSheet(): Promise<TestPipeline> {
  const t = await testPipeline({ workers: false, settings: { rowsHighWater: 100 } });
  open.push(() => t.close());
  const rows = Array.from({ length: 100 }, (_, i) => sheetRow(i + 1));
  const path = await writeCsvSheet(await tempDir('gives-way-'), 'big.csv', rows);
  await recordTestSheet(t.ctx.store, 's-big', path, t.ctx.settings.sheetsDir, t.ctx.connection.id);
  await t.ctx.store.markHanding('s-big');
  await t.ctx.store.update('s-big', { checkpoint: 50 });
  return t;
}

/** The context with a rows queue always over its high water mark; looking stops the process. */
function alwaysFull(t: TestPipeline) {
  const stop = { ...t.ctx.stop, stopping: new AbortController() };
  return withRowsQueue(
    { ...t.ctx, stop },
    {
      getJobCountByTypes: () => {
        stop.stopping.abort();
        return Promise.resolve(1_000_000);
      },
    },
  );
}

describe('a sheet job held back by a full rows queue', () => {
  it('gives its place up to a sheet job that was never worked', async () => {
    const t = await heldSheet();
    await queueSheet(t.ctx.queues, 's-new');
    await expect(runSheetJob(alwaysFull(t), 's-big')).rejects.toThrow(
      knownError('NotYet', 'sheet.gives-way'),
    );
    // Rows 51 to 100 were not handed on: the job goes on from its checkpoint when it runs again.
    expect((await t.ctx.store.get('s-big'))?.checkpoint).toBe(50);
  });

  it('keeps its place before a sheet job that was worked and handed back', async () => {
    const t = await heldSheet();
    await queueSheet(t.ctx.queues, 's-back');
    // Worked once and handed back, as a held job that gave way, or one waiting for another disk.
    const worker = new Worker(t.ctx.queues.sheets.name, undefined, {
      connection: bullConnection(t.ctx.settings.redis),
      prefix: t.ctx.settings.prefix,
    });
    open.push(() => worker.close());
    const job = (await worker.getNextJob('test-token')) as Job | undefined;
    await job?.moveToDelayed(Date.now(), 'test-token');
    await t.ctx.queues.sheets.promoteJobs();
    expect((await t.ctx.queues.sheets.getWaiting()).map((j) => j.id)).toEqual(['s-back.sheet']);
    // It waits on, held back, until the process stops.
    await expect(runSheetJob(alwaysFull(t), 's-big')).rejects.toThrow(
      knownError('NotYet', 'process.stopping'),
    );
  });
});
