/**
 * The one place that decides a sheet's report is due, and queues it. A report is due once every
 * row the sheet counted is final. Two steps can make it so, each one atomic in Redis, which tells
 * the single caller whose step did (`reportQueued`): rows becoming final, or the sheet's number of
 * rows set once all are read. The reconciler asks again, for a sheet whose signal was lost (its
 * process died between the step and the queueing); a report queued twice is one job (its id).
 */
import type { Context } from '../context.js';
import type { RowOutcome } from '../glossary.js';
import { queueReport } from '../queue/queues.js';

/** What happened to a sheet that may have made its report due. */
export type SheetStep =
  /** These rows' final results, recorded here (a row final before keeps its first result). */
  | { rowsFinal: ReadonlyArray<readonly [row: number, outcome: RowOutcome]> }
  /** All its rows are read: this many, recorded here. */
  | { total: number }
  /** Nothing new: the reconciler's look at a sheet that may be complete and never reported. */
  | { lostSignal: true };

export interface ReportDue {
  /** Whether this call queued the report. */
  queued: boolean;
  /** The statuses of the rows that became final by this call (one per row), for the counters. */
  added: string[];
}

/** Records the step, and queues the sheet's report when the sheet is complete by it. */
export async function reportIfDue(
  ctx: Context,
  sheetId: string,
  step: SheetStep,
): Promise<ReportDue> {
  const { due, added } = await dueBy(ctx, sheetId, step);
  if (due) await queueReport(ctx.queues, sheetId);
  return { queued: due, added };
}

async function dueBy(
  ctx: Context,
  sheetId: string,
  step: SheetStep,
): Promise<{ due: boolean; added: string[] }> {
  if ('rowsFinal' in step) return ctx.store.finalizeCounted(sheetId, step.rowsFinal);
  if ('total' in step) return { due: await ctx.store.setTotal(sheetId, step.total), added: [] };
  // Another connection's sheet is reconciled by its own workers.
  const due =
    (await ctx.store.reportOverdue(sheetId)) &&
    (await ctx.store.get(sheetId))?.connectionId === ctx.connection.id;
  return { due, added: [] };
}
