/** The `reports` queue: one job per sheet once all its rows are final. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { writeReport } from '../src/report/report.js';

export const reportJobSchema = z.object({ sheetId: z.string().min(1) });

export function reportsProcessor(ctx: Context) {
  return async (job: Job): Promise<void> => {
    const { sheetId } = reportJobSchema.parse(job.data);
    await writeReport(ctx, sheetId);
  };
}
