/**
 * Which sheet a sheet dropped back from failed/ fixes, as its rows say it (`source_sheet` and
 * `source_row`, orders/columns.ts) and as far as it can be believed: the cells are the user's,
 * so a claim counts only for a sheet of the same connection, reported, taken before the fix,
 * and only for its rows that were a problem there. Pure: fixes.ts reads and records.
 */
import type { RowStatus } from '../glossary.js';
import type { RowEcho } from '../orders/row-echo.js';
import type { SheetRecord } from '../store/sheet-store.js';
import type { EarlierRow } from './earlier-report.js';

/** A problem of the original that a later sheet fixed, with the status it had there. */
export type FixedRow = [row: number, status: 'invalid' | 'failed'];

/** The rows of a fix that became an order, by the sheet and row they say they fix. */
export class FixClaims {
  /** Sheets one fix may name: a failed/ sheet names one; rows pasted together, a few. */
  static readonly MAX_ORIGINALS = 20;
  readonly #claims = new Map<string, number[]>();

  /** A row of the fix as it ended, and what it echoed of its source. */
  add(status: RowStatus, echo: Pick<RowEcho, 'sourceRow' | 'sourceSheet'>): void {
    // Fixed means an order exists for it now: made by this row, or found made before.
    if (status !== 'created' && status !== 'duplicate') return;
    if (echo.sourceSheet === '' || echo.sourceRow === '') return;
    const rows = this.#claims.get(echo.sourceSheet);
    if (rows !== undefined) rows.push(Number(echo.sourceRow));
    else if (this.#claims.size < FixClaims.MAX_ORIGINALS)
      this.#claims.set(echo.sourceSheet, [Number(echo.sourceRow)]);
  }

  byOriginal(): ReadonlyMap<string, readonly number[]> {
    return this.#claims;
  }
}

type Linked = Pick<SheetRecord, 'sheetId' | 'connectionId' | 'startedAt'>;

/** Whether `fix` may fix rows of `original`: anything else is a sheet like any other. */
export function mayFix(
  fix: Linked,
  original: (Linked & Pick<SheetRecord, 'reportDir'>) | undefined,
): boolean {
  if (original === undefined || original.sheetId === fix.sheetId) return false;
  if (original.connectionId === undefined || original.connectionId !== fix.connectionId)
    return false;
  if (original.reportDir === undefined) return false;
  return Date.parse(original.startedAt) < Date.parse(fix.startedAt);
}

/** The claimed rows that were invalid or failed in the original's report. */
export function fixedProblems(
  claimed: readonly number[],
  earlier: ReadonlyMap<number, EarlierRow>,
): FixedRow[] {
  const fixed: FixedRow[] = [];
  for (const row of new Set(claimed)) {
    const status = earlier.get(row)?.status;
    if (status === 'invalid' || status === 'failed') fixed.push([row, status]);
  }
  return fixed;
}
