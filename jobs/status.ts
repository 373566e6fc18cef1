/**
 * The `status` queue: the scheduled refresh (`status-sync`), which fans out one `status` job per
 * recent sheet, and those jobs, each reading one sheet's orders back (src/status/). Returns the
 * sheet's status, its changed orders listed.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { StatusFatalError } from '../src/status/read-order.js';
import { queueStatusRun, refreshQueuedSheet } from '../src/status/refresh.js';
import { ReportFolderError } from '../src/status/report-folder.js';
import type { SheetStatus } from '../src/status/status.js';
import { StoppingError } from '../src/stopping.js';
import { backToQueue } from './back-to-queue.js';

const statusJobSchema = z.object({ sheetId: z.string().regex(/^[\w.-]{1,200}$/) });

export function statusProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<SheetStatus | number> => {
    try {
      // A firing's own id names the run: its jobs are queued once, however often it is retried.
      if (job.name === 'status-sync')
        return await queueStatusRun(ctx, job.id ?? String(job.timestamp));
      return await refreshQueuedSheet(ctx, statusJobSchema.parse(job.data).sheetId);
    } catch (error) {
      if (error instanceof StoppingError) return backToQueue(job, token);
      // Nothing a retry mends in this run: the next run reads the sheet again.
      if (error instanceof ReportFolderError || error instanceof StatusFatalError)
        throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}
