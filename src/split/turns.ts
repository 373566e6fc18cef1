/**
 * Fair turns at the API's limit (docs/design.md "Operations", "Fair turns"): the rows of an
 * office's sheets take turns, so that a small sheet dropped behind a big one is not held until
 * the big one is done. A row job's BullMQ priority is its turn: the lowest waits the least. A
 * sheet's row k gets the turn `start + k`, where `start` is the turn next due in the office's
 * queue when the sheet begins handing its rows on: a sheet dropped later runs one for one with
 * those already waiting (round robin by rank), never before them all nor behind them all.
 *
 * A row handed back to wait (its API turn not come, a retry's backoff, a Retry-After, a worker
 * stopping) keeps its priority, so it keeps its turn: BullMQ puts it back among the prioritized
 * rows by it. Turns grow only while the queue is never empty; at BullMQ's highest priority they
 * stop growing, and rows past it wait first come, first served, as all rows did before.
 */
import type { Context } from '../context.js';

/** BullMQ's highest priority (2²¹); 0 would be no priority, before every prioritized job. */
export const LAST_TURN = 2_097_152;

/**
 * Where a sheet's turns begin: the turn next due in the office's queue (the lowest priority of
 * its rows waiting; 0 when none waits), less the rows the sheet handed on before (a sheet job
 * resumed from its checkpoint goes on with its next row right after the row now first, as a new
 * sheet's first row would, not behind every row waiting).
 */
export async function firstTurnOf(ctx: Context, checkpoint: number): Promise<number> {
  const [next] = await ctx.queues.rows.getPrioritized(0, 0);
  return (next?.opts.priority ?? 0) - checkpoint;
}

/** The turn of the sheet's row `row` (1-based) when its turns begin at `first`. */
export function turnOf(first: number, row: number): number {
  return Math.min(LAST_TURN, Math.max(1, first + row));
}
