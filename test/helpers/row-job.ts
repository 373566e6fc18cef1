/** A row job as its processor hands it to RowRun, for tests that run a row's steps directly. */
import { type RowJobData, rowJobSchema } from '../../src/rows/row-data.js';
import type { RowJobHandle } from '../../src/rows/row-run.js';

/** The job's data parsed as the processor parses it, kept in memory; taken `attemptsStarted` times. */
export function rowJobHandle(data: RowJobData, attemptsStarted = 1): RowJobHandle {
  return {
    data: rowJobSchema.parse(data),
    attemptsStarted,
    attemptsMade: attemptsStarted - 1,
    maxAttempts: 5,
  };
}
