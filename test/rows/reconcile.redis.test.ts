import { type Job, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { bullConnection, rowJobId } from '../../src/queue/queues.js';
import { reconcile } from '../../src/rows/reconcile.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';

const SHEET = 's-lost';

/** A row job of the sheet, as the sheet job queues it (one attempt: its first failure is final). */
function rowJob(ctx: Context, row: number, connectionId = ctx.connection.id): RowJobData {
  return {
    connectionId,
    sheetId: SHEET,
    row,
    line: row + 1,
    key: null,
    order: {},
    attachments: [],
  };
}

/**
 * Queues these row jobs and fails each through BullMQ's own steps, with no worker listening: what
 * a process that died between a job's last failure and its `failed` event leaves behind.
 */
async function failedRowJobs(ctx: Context, jobs: RowJobData[]): Promise<void> {
  for (const data of jobs)
    await ctx.queues.rows.add('row', data, { jobId: rowJobId(SHEET, data.row), attempts: 1 });
  await failAll(ctx, ctx.queues.rows.name, jobs.length);
}

/** Hands out `count` jobs of the queue and fails each (one attempt: its first failure is final). */
async function failAll(ctx: Context, queue: string, count: number): Promise<void> {
  const worker = new Worker(queue, undefined, {
    connection: bullConnection(ctx.settings.redis),
    prefix: ctx.settings.prefix,
  });
  try {
    for (let k = 0; k < count; k++) {
      const job = (await worker.getNextJob('test-token')) as Job | undefined;
      if (!job) throw new Error('a queued job was not handed out');
      await job.moveToFailed(new Error('the process died'), 'test-token');
    }
  } finally {
    await worker.close();
  }
}

describe('the reconciler', () => {
  let t: TestPipeline;
  beforeEach(async () => {
    t = await testPipeline({ workers: false });
    await t.ctx.store.create({
      sheetId: SHEET,
      path: `/tmp/${SHEET}.csv`,
      name: `${SHEET}.csv`,
      sha256: `sha-${SHEET}`,
      connectionId: t.ctx.connection.id,
      apiBaseUrl: 'http://api',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it('removes the failed row jobs it settled, so that its next pass does not read them again', async () => {
    const { ctx } = t;
    await failedRowJobs(ctx, [rowJob(ctx, 1), rowJob(ctx, 2)]);
    expect(await ctx.queues.rows.getFailedCount()).toBe(2);
    await reconcile(ctx);
    expect(await ctx.queues.rows.getFailedCount()).toBe(0);
    const [first, second] = await ctx.store.outcomes(SHEET, [1, 2]);
    expect(first).toMatchObject({ status: 'failed', error: /the row job gave up/ });
    expect(second).toMatchObject({ status: 'failed', error: /the row job gave up/ });

    const again = await reconcile(ctx);
    expect(again).toMatchObject({ rows: 0 });
  });

  it('removes a job whose row was settled before (a crash between the two), its result kept', async () => {
    const { ctx } = t;
    await failedRowJobs(ctx, [rowJob(ctx, 1)]);
    // The worker's `failed` event settled the row; the process died before the job was removed.
    await ctx.store.finalize(SHEET, [[1, { status: 'failed', attempts: 1, error: 'first' }]]);

    const pass = await reconcile(ctx);
    expect(await ctx.queues.rows.getFailedCount()).toBe(0);
    expect(pass).toMatchObject({ rows: 1 });
    expect(await ctx.store.outcomes(SHEET, [1])).toEqual([
      { status: 'failed', attempts: 1, error: 'first' },
    ]);
  });

  it("leaves another connection's failed row job where it is: not its to settle", async () => {
    const { ctx } = t;
    await failedRowJobs(ctx, [rowJob(ctx, 1, 'another-connection')]);

    const pass = await reconcile(ctx);
    expect(pass).toMatchObject({ rows: 0 });
    expect(await ctx.queues.rows.getFailedCount()).toBe(1);
    expect(await ctx.store.isFinal(SHEET, 1)).toBe(false);
  });

  it('closes the sheet of a failed sheet job early, removes the job, and queues its report', async () => {
    const { ctx } = t;
    await ctx.queues.sheets.add(
      'sheet',
      { sheetId: SHEET },
      { jobId: `${SHEET}.sheet`, attempts: 1 },
    );
    await failAll(ctx, ctx.queues.sheets.name, 1);

    expect(await reconcile(ctx)).toMatchObject({ sheets: 1 });
    expect(await ctx.queues.sheets.getFailedCount()).toBe(0);
    expect((await ctx.store.get(SHEET))?.error).toMatch(/the sheet job gave up: the process died/);
    expect((await ctx.queues.reports.getJob(`${SHEET}.report`))?.data).toEqual({ sheetId: SHEET });
    expect(await reconcile(ctx)).toMatchObject({ sheets: 0 });
  });
});
