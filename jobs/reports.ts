/** The `reports` queue: one job per sheet once all its rows are final. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { writeReport } from '../src/report/report.js';
import { SheetElsewhereError } from '../src/store/sheet-home.js';
import { backToQueue } from './back-to-queue.js';

export const reportJobSchema = z.object({ sheetId: z.string().min(1) });

export function reportsProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const { sheetId } = reportJobSchema.parse(job.data);
    try {
      await writeReport(ctx, sheetId);
    } catch (error) {
      // Written on the disk of the sheet's installation, by one of its workers.
      if (error instanceof SheetElsewhereError) await backToQueue(job, token, error.retryInMs);
      throw error;
    }
  };
}
