/**
 * A sheet dropped back from failed/, linked with the sheet it fixes when its report is written:
 * each sheet its rows name (fix-claims.ts) is looked up, believed only when it may be fixed by
 * this one, and its rows counted fixed only where its own report.csv says they were a problem.
 * A claim that does not hold links nothing: the sheet was imported like any other, and no row of
 * it is lost or refused for it.
 */
import type { Context } from '../context.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { type EarlierRow, readEarlierReport } from './earlier-report.js';
import { FixClaims, fixedProblems, mayFix } from './fix-claims.js';

export { FixClaims };

/** Links the sheet with those it fixes; returns how many of their rows it fixed first. */
export async function recordFixes(
  ctx: Context,
  sheet: SheetRecord,
  claims: FixClaims,
): Promise<number> {
  let linked = 0;
  for (const [originalId, rows] of claims.byOriginal()) {
    const original = await ctx.store.get(originalId);
    if (original === undefined || !mayFix(sheet, original)) continue;
    const earlier = await problemsOf(ctx, original);
    // Its report moved, deleted or spoilt: which rows were problems is not known, so none is linked.
    if (earlier === undefined) continue;
    const fixed = fixedProblems(rows, earlier);
    if (fixed.length === 0) continue;
    linked += await ctx.store.fixes.record(originalId, sheet.sheetId, fixed);
  }
  if (linked > 0)
    ctx.logger.info({ sheetId: sheet.sheetId, linked }, 'rows of earlier sheets fixed');
  return linked;
}

/**
 * The original's rows as its report.csv says them; undefined when it cannot be read (a person
 * may have edited it): the fix's own report is written all the same, linking nothing.
 */
async function problemsOf(
  ctx: Context,
  original: SheetRecord,
): Promise<Map<number, EarlierRow> | undefined> {
  try {
    return await readEarlierReport(original);
  } catch (error) {
    ctx.logger.warn(
      { sheetId: original.sheetId, err: error },
      'the report of the sheet a fix names cannot be read: nothing linked',
    );
    return undefined;
  }
}
