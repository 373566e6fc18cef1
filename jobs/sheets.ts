/** The `sheets` queue: one job per sheet, reading it into row jobs. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import type { Context } from '../src/context.js';
import { runSheetJob } from '../src/split/sheet-job.js';
import { settleKnown } from './back-to-queue.js';

export const sheetJobSchema = z.object({ sheetId: z.string().min(1) });
export type SheetJobPayload = z.infer<typeof sheetJobSchema>;

export function sheetsProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const { sheetId } = sheetJobSchema.parse(job.data);
    try {
      await runSheetJob(ctx, sheetId, job.attemptsStarted);
    } catch (error) {
      // Its checkpoint says how far it got: whoever takes it next goes on from there. Not yet (a
      // stop, another disk, the same content importing) waits; another connection's is refused.
      await settleKnown(job, token, error);
      throw error;
    }
  };
}
