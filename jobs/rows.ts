/**
 * The `rows` queue: one job per valid row. The state machine is in src/rows/row-job.ts; this
 * turns its interruptions into BullMQ's control flow.
 */
import { type Job, RateLimitError, UnrecoverableError } from 'bullmq';

import { AbortedError } from '../src/api/errors.js';
import {
  ForeignJobError,
  runRowJob,
  type RowJobData,
  type RowJobDeps,
  RowInterruption,
} from '../src/rows/row-job.js';
import { StoppingError } from '../src/stopping.js';
import { backToQueue } from './back-to-queue.js';

export interface RowsProcessorDeps extends RowJobDeps {
  /** The rows queue: a Retry-After holds every worker back (`limiter` must be set on workers). */
  rateLimit(ms: number): Promise<void>;
  /** Every request must stop: pause the queue and say why. */
  stopAll(reason: string): Promise<void>;
  /** The last attempt failed: the row must still end in a status. */
  giveUp(data: unknown, attempts: number, reason: string): Promise<void>;
}

export function rowsProcessor(deps: RowsProcessorDeps) {
  return async (job: Job, token?: string): Promise<void> => {
    try {
      await runRowJob(
        {
          data: job.data,
          attemptsStarted: job.attemptsStarted,
          attemptsMade: job.attemptsMade,
          maxAttempts: job.opts.attempts ?? 1,
          updateData: (data: RowJobData) => job.updateData(data),
        },
        deps,
      );
    } catch (error) {
      if (error instanceof StoppingError) return backToQueue(job, token);
      // Stopping at once is no verdict on the row: it resumes later, whatever attempt this was.
      if (error instanceof AbortedError) throw error;
      // Its own connection's workers hold the real job: this one is neither sent nor settled.
      if (error instanceof ForeignJobError) throw new UnrecoverableError(error.message);
      if (!(error instanceof RowInterruption)) {
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          await deps.giveUp(job.data, job.attemptsStarted, (error as Error).message);
        }
        throw error;
      }
      const interrupt = error.interrupt;
      if (interrupt.kind === 'delay') return backToQueue(job, token, interrupt.ms);
      if (interrupt.kind === 'rate-limit') {
        await deps.pace.holdFor(interrupt.ms);
        await deps.rateLimit(interrupt.ms);
      } else {
        await deps.stopAll(interrupt.reason);
      }
      throw new RateLimitError(); // back to the queue as it is, no attempt spent
    }
  };
}
