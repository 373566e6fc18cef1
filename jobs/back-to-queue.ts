import { DelayedError, type Job, UnrecoverableError } from 'bullmq';

import { NotYet, Refused } from '../src/errors.js';

/**
 * Puts a job back in its queue as it is, to run again in `ms`, no attempt spent (a wait, or a
 * worker that is stopping).
 */
export async function backToQueue(job: Job, token: string | undefined, ms = 0): Promise<never> {
  await job.moveToDelayed(Date.now() + ms, token);
  throw new DelayedError();
}

/**
 * Where a stage's error of a known kind decides its job, by `retryable`: not yet (NotYet, a stop
 * under way) goes back to wait, no attempt spent; refused for good (Refused) is given up at once.
 * Any other error returns, for the processor to judge or BullMQ's attempts to retry.
 */
export async function settleKnown(job: Job, token: string | undefined, error: unknown) {
  if (!(error instanceof NotYet || error instanceof Refused)) return;
  if (error.retryable) await backToQueue(job, token, error.retryInMs);
  throw new UnrecoverableError(error.message);
}
