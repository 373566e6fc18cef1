/**
 * Scheduled imports: each `schedules` entry of the config file becomes a BullMQ job scheduler
 * (safe to upsert from several processes) whose job scans the entry's folder and takes its
 * sheets with the same intake as the watcher: for network shares where file events do not
 * arrive, and for nightly batches.
 */
import type { Queue } from 'bullmq';

export interface Schedule {
  name: string;
  cron: string;
  dir: string;
}

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/**
 * Makes Redis hold exactly these schedules on the connection's intake queue (one removed from the
 * config stops firing). Their scans run in workers/schedules.ts.
 */
export async function syncSchedules(queue: Queue, schedules: readonly Schedule[]): Promise<void> {
  const wanted = new Set(schedules.map((s) => `schedule:${s.name}`));
  for (const existing of await queue.getJobSchedulers()) {
    if (!wanted.has(existing.key)) await queue.removeJobScheduler(existing.key);
  }
  for (const schedule of schedules) {
    try {
      await queue.upsertJobScheduler(
        `schedule:${schedule.name}`,
        { pattern: schedule.cron },
        { name: 'scan', data: { name: schedule.name, dir: schedule.dir } },
      );
    } catch (error) {
      throw new ScheduleError(
        `schedule "${schedule.name}": "${schedule.cron}" is not a cron pattern (${(error as Error).message}).`,
        { cause: error },
      );
    }
  }
}
