/** The `reports` queue: one job per sheet once all its rows are final. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import { type ReportDeps, writeReport } from '../src/report/report.js';

export const reportJobSchema = z.object({ sheetId: z.string().min(1) });

export function reportsProcessor(deps: ReportDeps) {
  return async (job: Job): Promise<void> => {
    const { sheetId } = reportJobSchema.parse(job.data);
    await writeReport(sheetId, deps);
  };
}
