/**
 * The row job: a small state machine whose every step is stored before the next one
 * (docs/design.md §3): intent → order created (id, inspections) → file k uploaded (id) … → done. A job
 * that runs again — retried, resumed after a crash, handed over after a stall — goes on from the
 * last recorded step and never sends a create whose outcome it does not know.
 *
 * Two records keep the create safe: the intent on the job (before sending), and a claim in Redis
 * that only one attempt anywhere can hold, which becomes the answer the moment it comes back.
 *
 * The steps, each in its own module and each a no-op once its part is stored: resume (resume.ts),
 * ledger (ledger-check.ts), create (create.ts), upload (upload.ts), outcome (order-outcome.ts).
 * A step that makes the row final, or sends the job back to wait, ends the run.
 */
import type { Context } from '../context.js';
import { sendCreate } from './create.js';
import { ForeignJobError } from './interruption.js';
import { checkLedger } from './ledger-check.js';
import { orderOutcome } from './order-outcome.js';
import { resumeAnswer } from './resume.js';
import { type RowJobHandle, RowRun, type Step } from './row-run.js';
import { uploadFiles } from './upload.js';

/** The steps up to an order that exists, in their order. */
const TO_AN_ORDER: ReadonlyArray<(ctx: Context, run: RowRun) => Promise<Step>> = [
  resumeAnswer,
  checkLedger,
  sendCreate,
];

/** Runs one row to its final status, or throws to be retried or interrupted. */
export async function runRowJob(ctx: Context, job: RowJobHandle): Promise<void> {
  const { connectionId, sheetId, row } = job.data;
  if (connectionId !== ctx.connection.id) {
    throw new ForeignJobError(
      `row ${row} of sheet ${sheetId} belongs to connection ${connectionId}, not ${ctx.connection.id}: not sent from here.`,
    );
  }
  if (await ctx.store.isFinal(sheetId, row)) return;
  const run = new RowRun(ctx, job);
  for (const step of TO_AN_ORDER) {
    if ((await step(ctx, run)) === 'final') return;
  }
  const orderId = run.state.orderId;
  if (orderId === undefined) throw new Error(`row ${row} of sheet ${sheetId} has no order yet`);
  const uploads = await uploadFiles(ctx, run, orderId);
  await run.finish(orderOutcome(run, orderId, uploads));
}
