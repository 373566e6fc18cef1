/**
 * A row's final result, recorded once: the one way a row becomes final (a later call for the
 * same row changes nothing). The call that makes its sheet complete queues the sheet's report.
 */
import type { Context } from '../context.js';
import { queueReport } from '../queue/queues.js';
import type { RowOutcome } from '../store/results.js';

export async function recordOutcomes(
  ctx: Context,
  sheetId: string,
  outcomes: ReadonlyArray<readonly [row: number, outcome: RowOutcome]>,
): Promise<void> {
  // An order made is the API answering again, whatever outage was told.
  if (outcomes.some(([, outcome]) => outcome.status === 'created')) ctx.outages.api.recovered();
  if (await ctx.store.finalize(sheetId, outcomes)) await queueReport(ctx.queues, sheetId);
}

export async function recordOutcome(
  ctx: Context,
  sheetId: string,
  row: number,
  outcome: RowOutcome,
): Promise<void> {
  await recordOutcomes(ctx, sheetId, [[row, outcome]]);
}
