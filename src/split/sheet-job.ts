/**
 * The sheet job: proves a sheet readable to its end, then hands its rows on (hand-on.ts: invalid
 * rows recorded at once, one row job per valid row), checkpointing how far it got so that a
 * retried sheet job neither skips nor re-adds a row. Rows are validated once, in the second pass.
 */
import { type Context } from '../context.js';
import { reportIfDue } from '../report/due.js';
import { readEarlierReport } from '../report/earlier-report.js';
import { closeSheetEarly } from '../rows/outcome.js';
import { SheetError, sheetText } from '../sheets/errors.js';
import { handedNothingOn, type SheetRecord } from '../store/sheet-store.js';
import { handOn } from './hand-on.js';
import { readyOrThrow } from './not-yet.js';
import { countedAtIntake, countRecords, type CountedSheet } from './sheet-reading.js';

export async function runSheetJob(ctx: Context, sheetId: string, started = 1): Promise<void> {
  const { store } = ctx;
  const sheet = await store.get(sheetId);
  if (!sheet || sheet.state === 'done' || sheet.total !== undefined) return; // all rows read before
  const earlierSheet = await readyOrThrow(ctx, sheet, started);
  if (earlierSheet !== undefined && (await neverImported(ctx, sheet, earlierSheet)))
    return runSheetJob(ctx, sheetId, started); // its own import now, or another sheet's duplicate
  const log = ctx.logger.child({ sheetId, sheet: sheet.name });
  await store.update(sheetId, { state: 'reading' });

  // Read to its end and counted when it was queued (store/taken-sheet.ts), else here.
  let counted: CountedSheet | undefined;
  try {
    const { scan } = sheet;
    if (scan === undefined) counted = await countRows(ctx, sheet);
    else await ctx.store.update(sheetId, { expected: await countedAtIntake(ctx, sheet, scan) });
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return unreadable(ctx, sheet, error);
  }

  const earlier =
    sheet.duplicateOf === undefined ? undefined : await readEarlierReport(earlierSheet);
  let read: { rows: number; warnings: string[] };
  try {
    read = await handOn(ctx, sheet, earlier, counted?.kept);
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return unreadable(ctx, sheet, error);
  }
  await store.update(sheetId, { warnings: read.warnings });
  log.info({ rows: read.rows }, 'sheet read');
  await reportIfDue(ctx, sheetId, { total: read.rows });
}

/**
 * Whether the earlier sheet this one duplicates ended without importing the content (not one
 * row handed on): then this sheet takes the content over and is imported, or, when a third
 * sheet registered it meanwhile, becomes that one's duplicate.
 */
async function neverImported(
  ctx: Context,
  sheet: SheetRecord,
  earlier: SheetRecord,
): Promise<boolean> {
  const content = `${sheet.connectionId ?? ctx.connection.id}|${sheet.sha256}`;
  const released = (await ctx.store.findBySha(content)) !== earlier.sheetId;
  if (!released && !handedNothingOn(earlier)) return false;
  const holder = await ctx.store.adoptSha(content, earlier.sheetId, sheet.sheetId);
  ctx.logger.info(
    { sheetId: sheet.sheetId, earlier: earlier.sheetId, ...(holder && { duplicateOf: holder }) },
    'the earlier sheet of the same content imported none of it',
  );
  return true;
}

/**
 * The first pass proves the whole sheet readable before a single order is sent (a quote left
 * open at row 90,000 must not leave 89,999 orders behind a sheet that "cannot be read"): its
 * records are parsed and counted, not validated (and kept, for a small sheet, for the second).
 * The intake's pass over the copy did this for a sheet whose record has its `scan`; this is for
 * one it could not read (refused here, saying why) or one queued by an older version.
 */
async function countRows(ctx: Context, sheet: SheetRecord): Promise<CountedSheet> {
  const counted = await countRecords(ctx, sheet);
  const { info } = counted;
  await ctx.store.update(sheet.sheetId, {
    format: info.format,
    encoding: info.encoding,
    expected: counted.rows,
    ...(info.delimiter !== undefined && { delimiter: info.delimiter }),
    ...(info.columns !== undefined && { columns: info.columns }),
  });
  return counted;
}

/**
 * A sheet that cannot be read: with no row handed on yet, no rows, one error and a report that
 * says so; once rows may have been (the file changed half-way, or a run stopped between queueing
 * rows and its checkpoint), those are reported as they end, and the content stays imported.
 */
async function unreadable(ctx: Context, sheet: SheetRecord, error: SheetError): Promise<void> {
  // The user's file, not a fault of the program: its reason, without a stack trace.
  ctx.logger.warn({ sheetId: sheet.sheetId, reason: error.message }, 'sheet cannot be read');
  const current = await ctx.store.get(sheet.sheetId);
  // What its report and the dashboard say: in the office's words.
  const text = sheetText(ctx.words, error);
  if ((current?.checkpoint ?? 0) > 0 || current?.handing === true)
    return closeSheetEarly(ctx, sheet.sheetId, text);
  await ctx.store.update(sheet.sheetId, { error: text });
  await ctx.store.forgetSha(`${ctx.connection.id}|${sheet.sha256}`, sheet.sheetId);
  await reportIfDue(ctx, sheet.sheetId, { total: 0 });
}
