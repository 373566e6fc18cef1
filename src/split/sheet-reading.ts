/**
 * The sheet job's passes over a sheet's private copy: its records as written (to prove it
 * readable to the end, validating nothing: only for a sheet the intake's pass could not read, or
 * queued by an older version) and its rows validated (to hand them on), the second from the
 * records the first kept when the sheet is small enough. Either is
 * refused as a whole when the user's file changed before any row was handed on, or when the
 * copy's bytes are not the ones queued (cut short by a crash, or a sheet queued before copies were
 * made that changed since).
 */
import { stat } from 'node:fs/promises';

import type { Context } from '../context.js';
import { SheetError } from '../sheets/errors.js';
import { type Said, said } from '../sheets/said.js';
import type { OpenedSheet } from '../sheets/read-sheet.js';
import { readToEnd, replaySource, type SheetSource } from '../sheets/records.js';
import type { SheetInfo } from '../sheets/types.js';
import { openImported, readImported, validateImported } from '../store/imported-sheet.js';
import { sheetChanged, sheetSource } from '../store/sheet-copy.js';
import type { SheetRecord } from '../store/sheet-store.js';
import type { ScannedSheet } from '../store/taken-sheet.js';

export const CHANGED_BEFORE_READ: Said = said('sheets.changedBeforeRead');

/**
 * Sheets up to this size are parsed once: their records are kept from the first pass for the
 * second, unless they would take more than KEEP_MEMORY (many short rows). Others are parsed
 * twice, streaming, so that memory stays bounded whatever the size.
 */
const KEEP_BYTES = 8 * 1024 * 1024;
const KEEP_MEMORY = 48 * 1024 * 1024;

/** A sheet read to its end: what it is, how many rows it has, and its records when kept. */
export interface CountedSheet {
  info: SheetInfo;
  rows: number;
  /** The sheet as read, to validate without parsing it again; undefined for a large sheet. */
  kept?: SheetSource;
}

/** Reads the sheet's records to the end, validating nothing: proves it readable, and counts. */
export async function countRecords(ctx: Context, sheet: SheetRecord): Promise<CountedSheet> {
  await refuseChangedBeforeRead(sheet);
  const source = orRefused(await openImported(sheet, ctx.settings));
  const { rows, kept } = await readToEnd(source, source.info.bytes <= KEEP_BYTES ? KEEP_MEMORY : 0);
  return { info: source.info, rows, ...(kept && { kept: replaySource(source, kept) }) };
}

/**
 * The rows the intake's pass counted (its record's `scan`), once the copy is found where it was
 * taken: one lost since fails the job as the first pass's read of it would.
 */
export async function countedAtIntake(
  ctx: Context,
  sheet: SheetRecord,
  scan: ScannedSheet,
): Promise<number> {
  await stat(sheetSource(sheet, ctx.settings.sheetsDir).path);
  return scan.rows;
}

/**
 * The sheet's rows, validated: from the records kept by the first pass, or read again. The first
 * batch is two rows per worker: enough to start every worker and have the next row ready, handed
 * on before the rest of the first thousand are checked.
 */
export async function rowsToHandOn(
  ctx: Context,
  sheet: SheetRecord,
  kept?: SheetSource,
): Promise<OpenedSheet> {
  await refuseChangedBeforeRead(sheet);
  const options = { firstBatch: Math.max(1, ctx.settings.concurrency * 2) };
  if (kept !== undefined) return validateImported(sheet, kept, ctx, options);
  return orRefused(await readImported(sheet, ctx, options));
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
