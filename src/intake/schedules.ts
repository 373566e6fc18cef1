/**
 * Scheduled imports: each `schedules` entry of the config file becomes a BullMQ job scheduler
 * (safe to upsert from several processes) whose job scans the entry's folder and takes its
 * sheets with the same intake as the watcher: for network shares where file events do not
 * arrive, and for nightly batches.
 */
import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';

import { scanProcessor } from '../../jobs/scan.js';
import type { Intake, IntakeResult } from './intake.js';

export interface Schedule {
  name: string;
  cron: string;
  dir: string;
}

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

export interface RunningSchedules {
  close(): Promise<void>;
}

/**
 * Makes Redis hold exactly these schedules (one removed from the config stops firing) and, when
 * there are any, runs their scans in this process.
 */
export async function startSchedules(options: {
  schedules: readonly Schedule[];
  redisUrl: string;
  prefix: string;
  /** The connection's intake queue (keys.ts): its schedules are scanned by its own processes. */
  queueName: string;
  intake: Intake;
  logger: Logger;
  /** Told of every sheet a scan takes. */
  onResult?: (path: string, result: IntakeResult) => void;
}): Promise<RunningSchedules> {
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const queue = new Queue(options.queueName, { connection, prefix: options.prefix });
  try {
    const wanted = new Set(options.schedules.map((s) => `schedule:${s.name}`));
    for (const existing of await queue.getJobSchedulers()) {
      if (!wanted.has(existing.key)) await queue.removeJobScheduler(existing.key);
    }
    for (const schedule of options.schedules) {
      try {
        await queue.upsertJobScheduler(
          `schedule:${schedule.name}`,
          { pattern: schedule.cron },
          { name: 'scan', data: { name: schedule.name, dir: schedule.dir } },
        );
      } catch (error) {
        throw new ScheduleError(
          `schedule "${schedule.name}": "${schedule.cron}" is not a cron pattern (${(error as Error).message}).`,
          {
            cause: error,
          },
        );
      }
    }
  } catch (error) {
    await queue.close();
    throw error;
  }
  if (options.schedules.length === 0) {
    await queue.close();
    return { close: () => Promise.resolve() };
  }
  const worker = new Worker(options.queueName, scanProcessor(options.intake, options.onResult), {
    connection,
    prefix: options.prefix,
    concurrency: 1,
  });
  worker.on('failed', (job, error) => {
    // A share not mounted is the usual cause: one line, not a stack, at every firing.
    options.logger.warn({ schedule: job?.data, reason: error.message }, 'scheduled scan failed');
  });
  worker.on('error', (error) => {
    options.logger.error({ err: error }, 'intake worker error');
  });
  return {
    close: async () => {
      await worker.close();
      await queue.close();
    },
  };
}
