/**
 * Scheduled imports: each `schedules` entry of the config file is a BullMQ job scheduler (safe to
 * upsert from several processes) on the connection's intake queue, whose job names the schedule;
 * this process's worker (run by the doorbell while a firing is due) scans the folder its settings
 * give it (intake/schedules.ts) and takes its sheets with the same intake as the watcher.
 *
 * And the refresh of the orders' statuses (STATUS_SYNC_CRON, `watch` only): one job scheduler on
 * the connection's status queue (one firing however many processes hold it); `off` removes it.
 * Its jobs, and the status jobs they fan out, are worked by every process's status worker
 * (start.ts).
 */
import { Worker } from 'bullmq';

import { scanProcessor } from '../../jobs/scan.js';
import { type Context, redisTrouble } from '../context.js';
import type { Intake, IntakeResult } from '../intake/intake.js';
import { type ScheduledFolders, syncSchedules } from '../intake/schedules.js';
import { STATUS_SYNC } from '../queue/queues.js';
import { isRedisUnreachable } from '../redis/connect.js';
import { UserError } from '../errors.js';
import { Doorbell } from './doorbell.js';

export interface RunningSchedules {
  close(): Promise<void>;
}

/**
 * Makes Redis hold exactly these schedules and, when there are any, runs their scans here: a
 * worker of the office's intake queue, started by the doorbell while a scan is due.
 */
export async function startSchedules(
  ctx: Context,
  folders: ScheduledFolders,
  intake: Pick<Intake, 'take'>,
  /** Told of every sheet a scan takes. */
  onResult?: (path: string, result: IntakeResult) => void,
  doorbell?: Doorbell,
): Promise<RunningSchedules> {
  await folders.check();
  await syncSchedules(ctx.queues.intake, folders.schedules);
  if (folders.schedules.length === 0) return { close: () => Promise.resolve() };
  const processor = scanProcessor(folders, intake, ctx.logger, onResult);
  const make = () => {
    const worker = new Worker(ctx.queues.intake.name, processor, {
      connection: ctx.clients.bull,
      prefix: ctx.settings.prefix,
      concurrency: 1,
    });
    worker.on('failed', (job, error) => {
      // A share not mounted is the usual cause: one line, not a stack, at every firing.
      ctx.logger.warn({ schedule: job?.data, reason: error.message }, 'scheduled scan failed');
    });
    worker.on('error', (error) => {
      if (isRedisUnreachable(error)) redisTrouble(ctx, error);
      else ctx.logger.error({ err: error }, 'intake worker error');
    });
    return worker;
  };
  const bell = doorbell ?? new Doorbell({ logger: ctx.logger, ownedByItsOffices: true });
  const leave = bell.add(ctx, [{ kind: 'intake', queue: ctx.queues.intake, make }]);
  return { close: leave };
}

/** Makes Redis hold the refresh's schedule on `cron`, or none for `off`. */
export async function syncStatusSchedule(ctx: Context, cron: string): Promise<void> {
  if (cron === 'off') {
    await ctx.queues.status.removeJobScheduler(STATUS_SYNC);
    return;
  }
  try {
    await ctx.queues.status.upsertJobScheduler(
      STATUS_SYNC,
      { pattern: cron },
      {
        name: STATUS_SYNC,
        opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
      },
    );
  } catch (error) {
    throw new UserError(
      'status.schedule-invalid',
      `STATUS_SYNC_CRON "${cron}" is not a cron pattern (${(error as Error).message}).`,
      { cause: error, values: { cron, problem: (error as Error).message } },
    );
  }
}
