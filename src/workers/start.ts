/**
 * This process's workers of a connection's queues: one per queue, each running the thin
 * processor of its job kind (jobs/), started by the process's doorbell while its queue has work
 * (doorbell.ts), and the reconciler's pass over the office. With schedules.ts, the only importer
 * of jobs/.
 */
import { Worker } from 'bullmq';

import { notifyProcessor } from '../../jobs/notify.js';
import { reportsProcessor } from '../../jobs/reports.js';
import { rowsProcessor } from '../../jobs/rows.js';
import { sheetsProcessor } from '../../jobs/sheets.js';
import { statusProcessor } from '../../jobs/status.js';
import type { Context } from '../context.js';
import { workerOptions } from '../queue/queues.js';
import { Doorbell, type OnDemand } from './doorbell.js';
import { reportFailures, settleWhenGivenUp } from './failures.js';

/** A limiter that no number of row jobs reaches (BullMQ's rate-limit hold is far above it). */
const NO_JOB_CAP = { max: 1_000_000_000, duration: 60_000 };

/**
 * The reconciler's repeating job of versions before the doorbell: the reconciler is a pass of
 * each working process now, and that job would wake the reports worker of every office.
 */
const OLD_RECONCILE_SCHEDULER = 'reconcile';

/** The process's doorbell, or one of the context's own (closed with it) when none is given. */
function doorbellOf(ctx: Context, doorbell: Doorbell | undefined): Doorbell {
  return doorbell ?? new Doorbell({ logger: ctx.logger, ownedByItsOffices: true });
}

/**
 * Only the worker of the context's notifications: for a command that queues events and delivers
 * them itself (`status` run by hand), with no other work taken on. Closed with the context.
 */
export function startNotifyWorker(ctx: Context, doorbell?: Doorbell): void {
  doorbellOf(ctx, doorbell).add(ctx, [
    {
      kind: 'notify',
      queue: ctx.queues.notify,
      make: () =>
        reported(ctx, new Worker(ctx.queues.notify.name, notifyProcessor(ctx), options(ctx, 4))),
    },
  ]);
}

/** The context's workers, on demand, and the reconciler's pass over its office. */
export async function startWorkers(ctx: Context, doorbell?: Doorbell): Promise<void> {
  const { queues } = ctx;
  await queues.reports.removeJobScheduler(OLD_RECONCILE_SCHEDULER);
  doorbellOf(ctx, doorbell).add(ctx, officeWorkers(ctx), true);
}

function options(ctx: Context, concurrency: number) {
  return workerOptions(ctx.settings, concurrency, ctx.clients.bull);
}

/** The worker, its failures and errors reported (failures.ts). */
function reported(ctx: Context, worker: Worker): Worker {
  reportFailures(ctx, worker);
  return worker;
}

function officeWorkers(ctx: Context): OnDemand[] {
  const { settings, queues } = ctx;
  const report = reportsProcessor(ctx);
  return [
    {
      kind: 'sheets',
      queue: queues.sheets,
      make: () => {
        const sheets = new Worker(queues.sheets.name, sheetsProcessor(ctx), options(ctx, 2));
        settleWhenGivenUp(ctx, 'sheets', sheets);
        return reported(ctx, sheets);
      },
    },
    {
      kind: 'rows',
      queue: queues.rows,
      make: () => {
        const rows = new Worker(queues.rows.name, rowsProcessor(ctx), {
          ...options(ctx, settings.concurrency),
          // Only what makes a Retry-After (queue.rateLimit) hold the workers: BullMQ looks at
          // that hold only for a worker with a limiter. It caps no jobs: the API's budget is of
          // requests, and the pace (store/pace.ts) governs them; a row may send several, or none.
          limiter: NO_JOB_CAP,
        });
        settleWhenGivenUp(ctx, 'rows', rows);
        return reported(ctx, rows);
      },
    },
    {
      kind: 'reports',
      queue: queues.reports,
      make: () =>
        reported(
          ctx,
          new Worker(
            queues.reports.name,
            // A reconciler's job queued by an earlier version before its scheduler was removed:
            // the doorbell's pass does its work now.
            async (job, token) => (job.name === 'reconcile' ? undefined : report(job, token)),
            options(ctx, 1),
          ),
        ),
    },
    // Notifications wait on receivers, not on the API: a few at once, apart from the rows.
    {
      kind: 'notify',
      queue: queues.notify,
      make: () =>
        reported(ctx, new Worker(queues.notify.name, notifyProcessor(ctx), options(ctx, 4))),
    },
    // Reading orders back: one sheet at a time per process, its orders paced with the imports'.
    {
      kind: 'status',
      queue: queues.status,
      make: () =>
        reported(ctx, new Worker(queues.status.name, statusProcessor(ctx), options(ctx, 1))),
    },
  ];
}
