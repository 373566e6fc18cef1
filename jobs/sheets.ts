/** The `sheets` queue: one job per sheet, reading it into row jobs. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import { runSheetJob, type SheetJobDeps } from '../src/pipeline/sheet-job.js';

export const sheetJobSchema = z.object({ sheetId: z.string().min(1) });
export type SheetJobPayload = z.infer<typeof sheetJobSchema>;

export function sheetsProcessor(deps: SheetJobDeps) {
  return async (job: Job): Promise<void> => {
    const { sheetId } = sheetJobSchema.parse(job.data);
    await runSheetJob(sheetId, deps);
  };
}
