/**
 * The sheet job's second pass: every row after the checkpoint validated, then recorded or queued
 * (row-jobs.ts), the checkpoint moved past each batch. Once the user's file has changed, the rows
 * left are refused instead, each saying why: the rows are read from the private copy whatever
 * happens, but a sheet saved over is one the user no longer wants imported as it was, and the
 * rows handed on before must not be joined by rows of another version.
 */
import type { Context } from '../context.js';
import type { EarlierRow } from '../report/earlier-report.js';
import { SheetError } from '../sheets/errors.js';
import type { SheetSource } from '../sheets/records.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { recordOrQueue, refuseRows } from './row-jobs.js';
import { CHANGED_BEFORE_READ, changedSinceQueued, rowsToHandOn } from './sheet-reading.js';
import { firstTurnOf } from './turns.js';
import { backpressure } from './backpressure.js';

/** Hands on every row after the checkpoint (`kept`: the sheet as the first pass read it); returns how many rows the sheet has, and its warnings. */
export async function handOn(
  ctx: Context,
  sheet: SheetRecord,
  earlier: Map<number, EarlierRow> | undefined,
  kept?: SheetSource,
): Promise<{ rows: number; warnings: string[] }> {
  const opened = await rowsToHandOn(ctx, sheet, kept);
  let rows = 0;
  let handed = sheet.checkpoint;
  let changed = false;
  let marked = sheet.handing;
  const same = new Set<string>();
  const firstTurn = await firstTurnOf(ctx, sheet.checkpoint);
  for await (const batch of opened.batches) {
    rows = batch.at(-1)?.row ?? rows;
    const fresh = batch.filter((result) => result.row > sheet.checkpoint);
    if (fresh.length === 0) continue;
    // Before a batch, not after: the last one goes at once, and so does a small sheet's only one;
    // and before the file is looked at, so that a batch held back is not of a version since left.
    if (!changed) await backpressure(ctx, sheet.sheetId, handed);
    changed ||= await changedSinceQueued(sheet, same);
    if (changed && handed === 0) throw new SheetError(CHANGED_BEFORE_READ);
    if (changed) {
      // The checkpoint stays at the last row handed on: a retry refuses these again, harmlessly.
      await refuseRows(ctx, sheet, fresh);
      continue;
    }
    // Durable before any row is: from here on, rows of it may be on their way (handedNothingOn).
    if (!marked) await ctx.store.markHanding(sheet.sheetId);
    marked = true;
    await recordOrQueue(ctx, sheet, fresh, earlier, firstTurn);
    await ctx.store.update(sheet.sheetId, { checkpoint: rows });
    handed = rows;
  }
  const warnings = [...opened.warnings];
  if (changed) {
    warnings.push(
      `the sheet changed while it was imported (it was saved over, or removed): rows ${handed + 1} to ${rows} were not imported, so that no orders come from two versions of it; rows 1 to ${handed}, queued before the change, are of the version queued (sha256 ${sheet.sha256.slice(0, 12)}…). Queue the sheet again to import its new content.`,
    );
  }
  return { rows, warnings };
}
