/**
 * The row job: a small state machine whose every step is stored before the next one
 * (docs/design.md §3): intent → order created (id, inspections) → file k uploaded (id) … → done. A job
 * that runs again — retried, resumed after a crash, handed over after a stall — goes on from the
 * last recorded step and never sends a create whose outcome it does not know.
 *
 * One record keeps the create safe: a claim in Redis that only one attempt anywhere can hold,
 * stored before the create is sent and saying when (the intent), which becomes the answer the
 * moment it comes back (store/row-progress.ts).
 *
 * The steps, each in its own module and each a no-op once its part is stored: start (start.ts:
 * resume, ledger, claim), create (create.ts), upload (upload.ts), outcome (order-outcome.ts).
 * A step that makes the row final, or sends the job back to wait, ends the run.
 */
import type { Context } from '../context.js';
import { awayFromHome } from '../store/sheet-home.js';
import { RowInterruption } from './interruption.js';
import { orderOutcome } from './order-outcome.js';
import { type RowJobHandle, RowRun } from './row-run.js';
import { startRow } from './start.js';
import { uploadFiles } from './upload.js';
import { FORGOT_ROW_WAIT_MS } from '../policy.js';
import { isKnown, Refused } from '../errors.js';

/** Runs one row to its final status, or throws to be retried or interrupted. */
export async function runRowJob(ctx: Context, job: RowJobHandle): Promise<void> {
  const { connectionId, sheetId, row } = job.data;
  if (connectionId !== ctx.connection.id) {
    throw new Refused(
      'row.foreign-job',
      `row ${row} of sheet ${sheetId} belongs to connection ${connectionId}, not ${ctx.connection.id}: not sent from here.`,
    );
  }
  // Its attachments are beside the sheet, on the disk of the installation that queued it: a
  // worker of another waits, neither sending the row nor giving it up.
  const away = await awayFromHome(ctx, sheetId, job.attemptsStarted);
  if (away !== undefined) throw new RowInterruption({ kind: 'delay', ms: away.retryInMs ?? 0 });
  const run = new RowRun(ctx, job);
  if ((await startOrWait(ctx, run)) === 'final') return;
  const orderId = run.state.orderId;
  if (orderId === undefined) throw new Error(`row ${row} of sheet ${sheetId} has no order yet`);
  const uploads = await uploadFiles(ctx, run, orderId);
  await run.finish(orderOutcome(run, orderId, uploads));
}

/**
 * The row's start; in a Redis that lost the installation's data (its claim refused), no create
 * and no verdict: the job waits, no attempt spent, until `ledger rebuild` has run.
 */
async function startOrWait(ctx: Context, run: RowRun): ReturnType<typeof startRow> {
  try {
    return await startRow(ctx, run);
  } catch (error) {
    if (isKnown(error, 'redis.forgot'))
      throw new RowInterruption({ kind: 'delay', ms: FORGOT_ROW_WAIT_MS });
    throw error;
  }
}
