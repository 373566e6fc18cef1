/** The `intake` queue: a schedule's scan of its folder, taking each sheet as the watcher does. */
import type { Job } from 'bullmq';
import { z } from 'zod';

import type { Intake, IntakeResult } from '../src/intake/intake.js';
import { sheetsIn } from '../src/intake/sheets-in.js';

export const scanJobSchema = z.object({ name: z.string(), dir: z.string() });

export function scanProcessor(
  intake: Intake,
  onResult?: (path: string, result: IntakeResult) => void,
) {
  return async (job: Job): Promise<number> => {
    const { dir } = scanJobSchema.parse(job.data);
    let queued = 0;
    for (const path of await sheetsIn(dir)) {
      const result = await intake.take(path, undefined, dir);
      onResult?.(path, result);
      if (result.kind === 'queued') queued += 1;
    }
    return queued;
  };
}
