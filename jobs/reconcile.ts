/**
 * The reconciler, a repeating job. It catches what a lost signal would leave behind:
 * - a sheet whose rows are all final but whose report was never queued;
 * - a row or sheet job BullMQ gave up on while no worker was there to hear it (the row gets its
 *   status all the same, the job is then removed from the failed set).
 */
import type { Job } from 'bullmq';

import type { Context } from '../src/context.js';
import { reportIfDue } from '../src/report/due.js';
import { giveUpJob } from '../src/rows/give-up.js';

const PAGE = 500;

export function reconcileProcessor(ctx: Context) {
  return async (_job: Job): Promise<number> => {
    let settled = 0;
    for (let start = 0; ; start += PAGE) {
      const failed = await ctx.queues.rows.getFailed(start, start + PAGE - 1);
      for (const job of failed) {
        await giveUpJob(ctx, 'rows', job, job.failedReason || 'failed');
        settled += 1;
      }
      if (failed.length < PAGE) break;
    }
    for (const job of await ctx.queues.sheets.getFailed(0, PAGE - 1))
      await giveUpJob(ctx, 'sheets', job, job.failedReason || 'failed');
    for (const sheetId of await ctx.store.activeSheets()) {
      if ((await reportIfDue(ctx, sheetId, { lostSignal: true })).queued) settled += 1;
    }
    return settled;
  };
}
