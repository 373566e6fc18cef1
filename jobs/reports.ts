/** The `reports` queue: one job per sheet once all its rows are final. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { writeReport } from '../src/report/report.js';
import { awayFromHome } from '../src/store/sheet-home.js';
import { backToQueue } from './back-to-queue.js';

export const reportJobSchema = z.object({ sheetId: z.string().min(1) });

export function reportsProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const { sheetId } = reportJobSchema.parse(job.data);
    // The copy it reads and the work folder it archives are on the sheet's installation's disk:
    // a worker of another hands the job back, no attempt spent.
    const away = await awayFromHome(ctx, sheetId, job.attemptsStarted);
    if (away !== undefined) return backToQueue(job, token, away.retryInMs);
    await writeReport(ctx, sheetId);
  };
}
