/**
 * The sheet job's two reads of a sheet's private copy: its records as written (to prove it
 * readable to the end, validating nothing) and its rows validated (to hand them on). Either is
 * refused as a whole when the user's file changed before any row was handed on, or when the
 * copy's bytes are not the ones queued (cut short by a crash, or a sheet queued before copies were
 * made that changed since).
 */
import type { Context } from '../context.js';
import { SheetError } from '../sheets/errors.js';
import type { OpenedSheet } from '../sheets/read-sheet.js';
import type { SheetRecords } from '../sheets/records.js';
import { readImported, readImportedRecords } from '../store/imported-sheet.js';
import { sheetChanged } from '../store/sheet-copy.js';
import type { SheetRecord } from '../store/sheet-store.js';

export const CHANGED_BEFORE_READ =
  'the sheet changed after it was queued: queue it again to import its new content.';

/** The sheet's records, not validated. */
export async function recordsToCount(sheet: SheetRecord, ctx: Context): Promise<SheetRecords> {
  await refuseChangedBeforeRead(sheet);
  return orRefused(await readImportedRecords(sheet, ctx.settings));
}

/**
 * The sheet's rows, validated. The first batch is two rows per worker: enough to start every
 * worker and have the next row ready, handed on before the rest of the first thousand are checked.
 */
export async function rowsToHandOn(sheet: SheetRecord, ctx: Context): Promise<OpenedSheet> {
  await refuseChangedBeforeRead(sheet);
  const firstBatch = Math.max(1, ctx.settings.concurrency * 2);
  return orRefused(await readImported(sheet, ctx, { firstBatch }));
}

/** Whether the user's file is no longer the version queued (saved over, or removed). */
export async function changedSinceQueued(sheet: SheetRecord, same?: Set<string>): Promise<boolean> {
  return (
    sheet.origin !== undefined && (await sheetChanged(sheet.path, sheet.origin, sheet.sha256, same))
  );
}

async function refuseChangedBeforeRead(sheet: SheetRecord): Promise<void> {
  if (sheet.checkpoint === 0 && (await changedSinceQueued(sheet))) {
    throw new SheetError(CHANGED_BEFORE_READ);
  }
}

function orRefused<T>(read: T | undefined): T {
  if (read === undefined) throw new SheetError(CHANGED_BEFORE_READ);
  return read;
}
