/**
 * This process's workers of a connection's queues: one per queue, each running the thin
 * processor of its job kind (jobs/), plus the reconciler's schedule. With schedules.ts, the only
 * importer of jobs/.
 */
import { Worker } from 'bullmq';

import { notifyProcessor } from '../../jobs/notify.js';
import { reconcileProcessor, reconcileRepeat } from '../../jobs/reconcile.js';
import { reportsProcessor } from '../../jobs/reports.js';
import { rowsProcessor } from '../../jobs/rows.js';
import { sheetsProcessor } from '../../jobs/sheets.js';
import { statusProcessor } from '../../jobs/status.js';
import type { Context } from '../context.js';
import { workerOptions } from '../queue/queues.js';
import { reportFailures, settleWhenGivenUp } from './failures.js';

/** A limiter that no number of row jobs reaches (BullMQ's rate-limit hold is far above it). */
const NO_JOB_CAP = { max: 1_000_000_000, duration: 60_000 };

/**
 * Only the worker of the context's notifications: for a command that queues events and delivers
 * them itself (`status` run by hand), with no other work taken on. Closed with the context.
 */
export function startNotifyWorker(ctx: Context): void {
  const notify = new Worker(
    ctx.queues.notify.name,
    notifyProcessor(ctx),
    workerOptions(ctx.settings, 4),
  );
  reportFailures(ctx, notify);
  ctx.workers.push(notify);
}

export async function startWorkers(ctx: Context): Promise<void> {
  const { settings, queues } = ctx;
  const options = (concurrency: number) => workerOptions(settings, concurrency);
  const sheets = new Worker(queues.sheets.name, sheetsProcessor(ctx), options(2));
  const rows = new Worker(queues.rows.name, rowsProcessor(ctx), {
    ...options(settings.concurrency),
    // Only what makes a Retry-After (queue.rateLimit) hold the workers: BullMQ looks at that
    // hold only for a worker with a limiter. It caps no jobs: the API's budget is of requests,
    // and the pace (store/pace.ts) governs them; a row may send several, or none (a duplicate).
    limiter: NO_JOB_CAP,
  });
  const report = reportsProcessor(ctx);
  const reconcile = reconcileProcessor(ctx);
  const reports = new Worker(
    queues.reports.name,
    async (job, token) => (job.name === 'reconcile' ? reconcile(job) : report(job, token)),
    options(1),
  );
  // Notifications wait on receivers, not on the API: a few at once, apart from the rows.
  const notify = new Worker(queues.notify.name, notifyProcessor(ctx), options(4));
  // Reading orders back: one sheet at a time per process, its orders paced with the imports'.
  const status = new Worker(queues.status.name, statusProcessor(ctx), options(1));
  settleWhenGivenUp(ctx, rows, sheets);
  for (const worker of [sheets, rows, reports, notify, status]) reportFailures(ctx, worker);
  ctx.workers.push(sheets, rows, reports, notify, status);
  await queues.reports.upsertJobScheduler('reconcile', reconcileRepeat, { name: 'reconcile' });
}
