/**
 * The `intake` queue: a schedule's scan, taking each sheet of its folder as the watcher does. The
 * payload names the schedule only; its folder comes from this process's settings
 * (`ScheduledFolders`). A payload of another shape (an older version's, with a folder in it) or
 * naming a schedule this process does not have is refused: logged, nothing scanned, and not
 * retried (the schedule fires again at its time).
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';

import type { Intake, IntakeResult } from '../src/intake/intake.js';
import { type ScheduledFolders, scanSchedule } from '../src/intake/schedules.js';
import { isKnown } from '../src/errors.js';

export const scanJobSchema = z.object({ schedule: z.string().min(1).max(200) }).strict();

export function scanProcessor(
  folders: ScheduledFolders,
  intake: Pick<Intake, 'take'>,
  logger: Logger,
  onResult?: (path: string, result: IntakeResult) => void,
) {
  return async (job: Job): Promise<number> => {
    const parsed = scanJobSchema.safeParse(job.data);
    if (!parsed.success) {
      logger.warn(
        { job: job.id, fields: Object.keys((job.data ?? {}) as object) },
        'scan job refused: its payload must name a schedule and nothing else (no folder); nothing scanned',
      );
      return 0;
    }
    try {
      return await scanSchedule(folders, parsed.data.schedule, intake, onResult);
    } catch (error) {
      if (!isKnown(error, 'schedule.invalid')) throw error;
      logger.warn({ job: job.id, reason: error.message }, 'scan job refused; nothing scanned');
      return 0;
    }
  };
}
