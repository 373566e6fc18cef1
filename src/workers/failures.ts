/**
 * What a worker hears when a job fails or the worker itself errs: an outage is told once, a job
 * BullMQ gives up on still ends in a status (its row, or its sheet closed early), and expected
 * events (a stop, a lock lost across a Redis restart) are one plain line, not a stack per job.
 */
import type { Job, Worker } from 'bullmq';

import { AbortedError, apiAway } from '../api/errors.js';
import { type Context, redisTrouble } from '../context.js';
import { isRedisUnreachable } from '../redis/connect.js';
import { giveUpJob } from '../rows/give-up.js';

/**
 * BullMQ's word that a job's lock lapsed, typically after a Redis restart, or that a job it was
 * finishing is gone: a finish Redis carried out before it went away, its answer lost, is sent
 * again once Redis is back and finds the job already removed (a finished row job is deleted at
 * once). Expected, and handled (stalled-job recovery; the row's result was recorded before), so
 * one line without a stack rather than an error per job.
 */
export function isLostLock(error: Error): boolean {
  return (
    /missing lock|could not renew lock|lock mismatch/i.test(error.message) ||
    /^missing key for job \S+\. (moveToFinished|moveToDelayed|moveToFailed|retryJob)$/i.test(
      error.message,
    )
  );
}

/** The job a lost lock's message names (`… for job <id>`, `Missing lock for job <id>. …`). */
function jobOfLock(message: string): string {
  return /job (\S+?)\.?(?:\s|$)/.exec(message)?.[1] ?? message;
}

/** BullMQ will not run this job again. */
function isGivenUp(job: Job, error: Error): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled more than/i.test(error.message);
}

/**
 * Settles a given-up job in the background, logging rather than losing what goes wrong. One not
 * settled here (another installation's: BullMQ fails a job too often stalled in whichever worker
 * takes it next) stays in the failed set for its own installation's reconciler.
 */
function settle(ctx: Context, queue: 'rows' | 'sheets', job: Job, error: Error): void {
  giveUpJob(ctx, queue, job, error.message).then(
    (settled) => {
      if (!settled) ctx.logger.debug({ queue, jobId: job.id }, 'given-up job not settled here');
    },
    (failure: unknown) => {
      ctx.logger.error({ err: failure }, 'could not settle a given-up job');
    },
  );
}

/** A row or sheet job given up on while this worker ran it: its row or sheet still ends. */
export function settleWhenGivenUp(ctx: Context, queue: 'rows' | 'sheets', worker: Worker): void {
  worker.on('failed', (job, error) => {
    if (job && isGivenUp(job, error)) settle(ctx, queue, job, error);
  });
}

/** Logs a worker's failures and errors for what they are. */
export function reportFailures(ctx: Context, worker: Worker): void {
  const { logger } = ctx;
  worker.on('failed', (job, error) => {
    const where = { queue: worker.name, jobId: job?.id, attempt: job?.attemptsMade };
    if (error instanceof AbortedError) logger.info(where, 'job stopped; it resumes later');
    else if (isRedisUnreachable(error)) redisTrouble(ctx, error);
    else if (apiAway(error)) ctx.outages.api.failed(error);
    else if (isLostLock(error)) ctx.outages.locks.lost(String(job?.id), error.message);
    else logger.warn({ ...where, err: error }, 'job attempt failed');
  });
  worker.on('error', (error) => {
    if (isRedisUnreachable(error)) redisTrouble(ctx, error);
    else if (isLostLock(error)) ctx.outages.locks.lost(jobOfLock(error.message), error.message);
    else logger.error({ queue: worker.name, err: error }, 'worker error');
  });
}
