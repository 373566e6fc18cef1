/**
 * A row's final result, recorded once: the one way a row becomes final (a later call for the
 * same row changes nothing). The call that makes its sheet complete queues the sheet's report.
 * A sheet closed early gives its rows that no job will end their result here too.
 */
import type { Context } from '../context.js';
import { hasRowJob } from '../queue/queues.js';
import type { RowOutcome } from '../glossary.js';
import { reportIfDue } from '../report/due.js';

export async function recordOutcomes(
  ctx: Context,
  sheetId: string,
  outcomes: ReadonlyArray<readonly [row: number, outcome: RowOutcome]>,
): Promise<void> {
  // An order made is the API answering again, whatever outage was told.
  if (outcomes.some(([, outcome]) => outcome.status === 'created')) ctx.outages.api.recovered();
  // Recorded where the sheet's report is decided: the call that completes the sheet queues it.
  const { added } = await reportIfDue(ctx, sheetId, { rowsFinal: outcomes });
  // Counted where a row becomes final, once: a row recorded again is not in `added`.
  ctx.metrics.rowsFinal(ctx.connection.name, added);
}

export async function recordOutcome(
  ctx: Context,
  sheetId: string,
  row: number,
  outcome: RowOutcome,
): Promise<void> {
  await recordOutcomes(ctx, sheetId, [[row, outcome]]);
}

/**
 * A sheet that cannot be read to its end: the rows already handed to row jobs are reported as
 * they end; the others as not processed. The report then follows as usual. `reason` is in the
 * office's words (ctx.words).
 */
export async function closeSheetEarly(
  ctx: Context,
  sheetId: string,
  reason: string,
): Promise<void> {
  const sheet = await ctx.store.get(sheetId);
  if (!sheet || sheet.total !== undefined || sheet.connectionId !== ctx.connection.id) return;
  const total = Math.max(sheet.expected ?? 0, sheet.checkpoint);
  if (total === 0) {
    // Not one row was counted: an empty report would read as a sheet with nothing to do.
    const error = ctx.words.t('rows.outcome.stoppedBeforeRows', { reason });
    await ctx.store.update(sheetId, { error });
  }
  const notProcessed: Array<[number, RowOutcome]> = [];
  const error = ctx.words.t('rows.outcome.notProcessedBecause', { reason });
  for (let row = sheet.checkpoint + 1; row <= total; row++) {
    // Its job first: one that ends meanwhile has made its row final before it is removed.
    if ((await hasRowJob(ctx.queues, sheetId, row)) || (await ctx.store.isFinal(sheetId, row)))
      continue;
    notProcessed.push([row, { status: 'failed', attempts: 0, error }]);
  }
  await recordOutcomes(ctx, sheetId, notProcessed);
  // Not one row of it was handed on (none final before, none queued): the content was never
  // imported, and must not make the rows of its next import `duplicate`. The checkpoint is read
  // again here: a run that went on meanwhile may have moved it.
  const latest = await ctx.store.get(sheetId);
  if (latest?.checkpoint === 0 && notProcessed.length === total)
    await ctx.store.forgetSha(`${sheet.connectionId}|${sheet.sha256}`, sheetId);
  const after = String(sheet.checkpoint);
  const warning = ctx.words.t('rows.warning.stopped', { row: after, reason });
  await ctx.store.update(sheetId, { warnings: [...sheet.warnings, warning] });
  ctx.logger.warn({ sheetId, reason }, 'sheet closed early');
  await reportIfDue(ctx, sheetId, { total });
}
