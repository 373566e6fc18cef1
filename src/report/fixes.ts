/**
 * A sheet dropped back from failed/, linked with the sheet it fixes when its report is written:
 * each sheet its rows name (fix-claims.ts) is looked up, believed only when it may be fixed by
 * this one, and its rows counted fixed only where its own report.csv says they were a problem.
 * A claim that does not hold links nothing: the sheet was imported like any other, and no row of
 * it is lost or refused for it.
 */
import type { Context } from '../context.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { readEarlierReport } from './earlier-report.js';
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
    if (!mayFix(sheet, original)) continue;
    const earlier = await readEarlierReport(original);
    // Its report moved or deleted: which rows were problems is not known, so none is linked.
    if (earlier === undefined) continue;
    const fixed = fixedProblems(rows, earlier);
    if (fixed.length === 0) continue;
    linked += await ctx.store.fixes.record(originalId, sheet.sheetId, fixed);
  }
  if (linked > 0)
    ctx.logger.info({ sheetId: sheet.sheetId, linked }, 'rows of earlier sheets fixed');
  return linked;
}
