/**
 * The `rows` queue: one job per valid row. The state machine is in src/rows/row-job.ts; this
 * parses the job, runs it, and turns its interruptions into BullMQ's control flow.
 */
import { type Job, RateLimitError, UnrecoverableError } from 'bullmq';

import { AbortedError } from '../src/api/errors.js';
import type { Context } from '../src/context.js';
import { giveUpJob } from '../src/rows/give-up.js';
import { type RowInterrupt, RowInterruption } from '../src/rows/interruption.js';
import { rowJobSchema } from '../src/rows/row-data.js';
import { runRowJob } from '../src/rows/row-job.js';
import { stopImport } from '../src/rows/stop-import.js';
import { backToQueue } from './back-to-queue.js';
import { isKnown } from '../src/errors.js';

export function rowsProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const maxAttempts = job.opts.attempts ?? 1;
    try {
      await runRowJob(ctx, {
        data: rowJobSchema.parse(job.data),
        attemptsStarted: job.attemptsStarted,
        attemptsMade: job.attemptsMade,
        maxAttempts,
      });
    } catch (error) {
      if (isKnown(error, 'process.stopping')) return backToQueue(job, token);
      // Stopping at once is no verdict on the row: it resumes later, whatever attempt this was.
      if (error instanceof AbortedError) throw error;
      // Its own connection's workers hold the real job: this one is neither sent nor given up.
      if (isKnown(error, 'row.foreign-job')) throw new UnrecoverableError(error.message);
      if (error instanceof RowInterruption) return interrupted(ctx, job, token, error.interrupt);
      // The row is final before BullMQ moves the job to its failed set.
      if (job.attemptsMade + 1 >= maxAttempts)
        await giveUpJob(ctx, 'rows', job, (error as Error).message);
      throw error;
    }
  };
}

/** Back to the queue, no attempt spent: after a wait, or held with every other row. */
async function interrupted(
  ctx: Context,
  job: Job,
  token: string | undefined,
  interrupt: RowInterrupt,
): Promise<never> {
  if (interrupt.kind === 'delay') return backToQueue(job, token, interrupt.ms);
  if (interrupt.kind === 'rate-limit') {
    await ctx.pace.holdFor(interrupt.ms);
    // Holds every worker of this queue back (its workers have a `limiter` for this).
    await ctx.queues.rows.rateLimit(interrupt.ms);
  } else {
    await stopImport(ctx, interrupt.stop);
  }
  throw new RateLimitError();
}
