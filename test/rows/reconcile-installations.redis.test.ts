/**
 * docs/design.md "One installation, one namespace": two installations (two data folders) on one
 * Redis and one prefix, here even with one connection (the same API and token: a test
 * installation beside production), each reconciles only its own sheets and jobs. The other's
 * failed jobs stay in the queue for its own reconciler, its sheets are neither closed nor
 * reported from here.
 */
import { type Job, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { bullConnection, rowJobId } from '../../src/queue/queues.js';
import { reconcile } from '../../src/rows/reconcile.js';
import { besideAnotherInstallation } from '../helpers/pipeline.js';

/** A sheet queued by the installation of `ctx`, with `rows` rows counted. */
async function sheetOf(ctx: Context, sheetId: string, rows: number): Promise<void> {
  await ctx.store.create({
    sheetId,
    path: `/tmp/${sheetId}.csv`,
    name: `${sheetId}.csv`,
    sha256: `sha-${sheetId}`,
    connectionId: ctx.connection.id,
    installation: ctx.installation.id,
    apiBaseUrl: 'http://api',
    sandbox: false,
    allowDuplicates: false,
    startedAt: new Date().toISOString(),
  });
  await ctx.store.setTotal(sheetId, rows);
}

/** Hands out the queue's next `count` jobs and fails each for good, no worker listening. */
async function failNext(ctx: Context, queue: string, count: number): Promise<void> {
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

/**
 * What a lost signal leaves behind for the installation of `ctx`: a failed row job (`<id>-rows`,
 * row 1 of 2), a failed sheet job (`<id>-sheet`), and a sheet whose rows are all final but whose
 * report was never queued (`<id>-done`).
 */
async function leftBehind(ctx: Context, id: string): Promise<void> {
  await sheetOf(ctx, `${id}-rows`, 2);
  const data = {
    connectionId: ctx.connection.id,
    sheetId: `${id}-rows`,
    row: 1,
    line: 2,
    key: null,
    order: {},
    attachments: [],
  };
  await ctx.queues.rows.add('row', data, { jobId: rowJobId(`${id}-rows`, 1), attempts: 1 });
  await failNext(ctx, ctx.queues.rows.name, 1);
  await ctx.store.create({
    sheetId: `${id}-sheet`,
    path: `/tmp/${id}-sheet.csv`,
    name: `${id}-sheet.csv`,
    sha256: `sha-${id}-sheet`,
    connectionId: ctx.connection.id,
    installation: ctx.installation.id,
    apiBaseUrl: 'http://api',
    sandbox: false,
    allowDuplicates: false,
    startedAt: new Date().toISOString(),
  });
  await ctx.queues.sheets.add(
    'sheet',
    { sheetId: `${id}-sheet` },
    { jobId: `${id}-sheet.sheet`, attempts: 1 },
  );
  await failNext(ctx, ctx.queues.sheets.name, 1);
  await sheetOf(ctx, `${id}-done`, 1);
  await ctx.store.finalize(`${id}-done`, [[1, { status: 'created', attempts: 1, orderId: 101 }]]);
}

describe('the reconciler of one installation beside another on the same Redis and prefix', () => {
  const installations = besideAnotherInstallation();

  it("settles, closes and reports nothing of the other's, and leaves it to the other's own", async () => {
    const t = installations.mine();
    const mine = t.ctx;
    const theirs = installations.theirs();
    expect(theirs.connection.id).toBe(mine.connection.id);
    expect(theirs.installation.id).not.toBe(mine.installation.id);
    await leftBehind(theirs, 'b');

    expect(await reconcile(mine)).toEqual({ rows: 0, sheets: 0, reports: 0 });
    expect(await mine.queues.rows.getFailedCount()).toBe(1);
    expect(await mine.queues.sheets.getFailedCount()).toBe(1);
    expect(await mine.store.isFinal('b-rows', 1)).toBe(false);
    expect((await mine.store.get('b-sheet'))?.total).toBeUndefined();
    expect(await mine.queues.reports.getJob('b-done.report')).toBeUndefined();

    expect(await reconcile(theirs)).toEqual({ rows: 1, sheets: 1, reports: 2 });
    expect(await theirs.store.isFinal('b-rows', 1)).toBe(true);
    expect(await theirs.queues.reports.getJob('b-done.report')).toBeDefined();
  });
});
