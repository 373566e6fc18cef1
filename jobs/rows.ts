/**
 * The `rows` queue: one job per valid row. The state machine is in src/rows/row-job.ts; this
 * turns its interruptions into BullMQ's control flow.
 */
import { type Job, RateLimitError, UnrecoverableError } from 'bullmq';

import { AbortedError } from '../src/api/errors.js';
import type { Context } from '../src/context.js';
import { settleGivenUpRow } from '../src/rows/give-up.js';
import {
  ForeignJobError,
  runRowJob,
  type RowJobData,
  RowInterruption,
} from '../src/rows/row-job.js';
import { stopImport } from '../src/rows/stop-import.js';
import { StoppingError } from '../src/stopping.js';
import { backToQueue } from './back-to-queue.js';

export function rowsProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    try {
      await runRowJob(ctx, {
        data: job.data,
        attemptsStarted: job.attemptsStarted,
        attemptsMade: job.attemptsMade,
        maxAttempts: job.opts.attempts ?? 1,
        updateData: (data: RowJobData) => job.updateData(data),
      });
    } catch (error) {
      if (error instanceof StoppingError) return backToQueue(job, token);
      // Stopping at once is no verdict on the row: it resumes later, whatever attempt this was.
      if (error instanceof AbortedError) throw error;
      // Its own connection's workers hold the real job: this one is neither sent nor settled.
      if (error instanceof ForeignJobError) throw new UnrecoverableError(error.message);
      if (!(error instanceof RowInterruption)) {
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          await settleGivenUpRow(ctx, job.data, job.attemptsStarted, (error as Error).message);
        }
        throw error;
      }
      const interrupt = error.interrupt;
      if (interrupt.kind === 'delay') return backToQueue(job, token, interrupt.ms);
      if (interrupt.kind === 'rate-limit') {
        await ctx.pace.holdFor(interrupt.ms);
        // Holds every worker of this queue back (its workers have a `limiter` for this).
        await ctx.queues.rows.rateLimit(interrupt.ms);
      } else {
        await stopImport(ctx, interrupt.reason);
      }
      throw new RateLimitError(); // back to the queue as it is, no attempt spent
    }
  };
}
