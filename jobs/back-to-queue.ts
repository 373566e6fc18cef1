import { DelayedError, type Job } from 'bullmq';

/**
 * Puts a job back in its queue as it is, to run again in `ms`, no attempt spent (a wait, or a
 * worker that is stopping).
 */
export async function backToQueue(job: Job, token: string | undefined, ms = 0): Promise<never> {
  await job.moveToDelayed(Date.now() + ms, token);
  throw new DelayedError();
}
