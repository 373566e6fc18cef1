/**
 * The `status` queue: the scheduled refresh (`status-sync`), which fans out one `status` job per
 * recent sheet, and those jobs, each reading one sheet's orders back (src/status/). Returns the
 * sheet's counts only: a finished job stays in Redis a while, and the orders' details (who
 * inspects, when) live in status.csv, not there.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { STATUS_SYNC } from '../src/queue/queues.js';
import { queueStatusRun, refreshQueuedSheet } from '../src/status/refresh.js';
import { awayFromHome } from '../src/store/sheet-home.js';
import { backToQueue, settleKnown } from './back-to-queue.js';
import { isKnown } from '../src/errors.js';

const statusJobSchema = z.object({ sheetId: z.string().regex(/^[\w.-]{1,200}$/) });

interface StatusCounts {
  sheetId: string;
  orders: number;
  byStatus: Record<string, number>;
  changed: number;
  unreadable: number;
  skipped: boolean;
}

export function statusProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<StatusCounts | number> => {
    try {
      // A firing's own id names the run: its jobs are queued once, however often it is retried.
      if (job.name === STATUS_SYNC)
        return await queueStatusRun(ctx, job.id ?? String(job.timestamp));
      const { sheetId: id } = statusJobSchema.parse(job.data);
      // Its report folder is on the disk of the sheet's installation: a worker of another hands
      // the job back, no attempt spent.
      const away = await awayFromHome(ctx, id, job.attemptsStarted);
      if (away !== undefined) return await backToQueue(job, token, away.retryInMs);
      const status = await refreshQueuedSheet(ctx, id);
      const { sheetId, orders, byStatus, changed, unreadable, skipped } = status;
      return { sheetId, orders, byStatus, changed, unreadable, skipped };
    } catch (error) {
      // Nothing a retry mends in this run: the next run reads the sheet again.
      if (isKnown(error, 'report-folder.unusable')) throw new UnrecoverableError(error.message);
      // A stop: back to wait, no attempt spent; 'status.api-unusable' (refused): given up.
      await settleKnown(job, token, error);
      throw error;
    }
  };
}
