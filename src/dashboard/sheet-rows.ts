/**
 * One page of a sheet's rows, filtered by status: a reported sheet's from its report.csv
 * (streamed, read only as far as the page), a running sheet's from the results Redis holds for it
 * until its report is written (the rows of the page asked for by number; a status looked for
 * among a bounded number of results).
 */
import type { RowOutcome, RowStatus } from '../glossary.js';
import { type Words, wordsFor } from '../language/words.js';
import { errorText } from '../report/outcome-text.js';
import type { SheetProgress } from '../store/progress.js';
import type { SheetStore } from '../store/sheet-store.js';
import { openReportRows, type ShownRow } from './report-csv.js';

/** Rows on one page. */
export const PAGE_SIZE = 100;
/** Results of a running sheet looked through for a status, at most. */
export const SCAN_LIMIT = 20_000;

/** The results Redis holds for the sheets not reported yet. */
export type RecordedResults = Pick<SheetStore, 'outcomes' | 'scanOutcomes'>;

export interface RowsQuery {
  status: RowStatus | undefined;
  /** From 1. */
  page: number;
}

export interface RowsPage {
  rows: ShownRow[];
  /** How many rows match: the pages run up to it. */
  matching: number;
  /** What the page cannot show yet: set for a running sheet. */
  note?: RowsNote;
}

/**
 * A running sheet's rows appear as they end; looking for a status, only `looked` of its `ended`
 * rows were looked through (when not all were).
 */
export interface RowsNote {
  ended: number;
  looked?: number;
}

/** A reported sheet's rows, or undefined when its report.csv cannot be found. */
export async function reportedRows(
  sheet: SheetProgress,
  query: RowsQuery,
): Promise<RowsPage | undefined> {
  if (sheet.reportDir === undefined) return undefined;
  const report = await openReportRows(sheet.reportDir, { rows: sheet.total });
  if (report === undefined) return undefined;
  const matching = query.status === undefined ? (sheet.total ?? 0) : sheet.counts[query.status];
  const skip = (query.page - 1) * PAGE_SIZE;
  const rows: ShownRow[] = [];
  let seen = 0;
  try {
    for await (const row of report.rows) {
      if (query.status !== undefined && row.status !== query.status) continue;
      seen += 1;
      if (seen <= skip) continue;
      rows.push(row);
      if (rows.length >= PAGE_SIZE) break;
    }
  } finally {
    await report.close();
  }
  return { rows, matching };
}

/**
 * A running sheet's rows: each row of the page, final or still pending; or those of a status.
 * What the importer adds to a row's result is in the page's `words`.
 */
export async function runningRows(
  sheet: SheetProgress,
  results: RecordedResults,
  query: RowsQuery,
  words: Words = wordsFor('en'),
): Promise<RowsPage> {
  const note: RowsNote = { ended: sheet.final };
  const { status, page } = query;
  if (status !== undefined) return runningRowsOf(sheet, results, { status, page }, note, words);
  const total = sheet.total ?? 0;
  const first = (query.page - 1) * PAGE_SIZE + 1;
  const numbers: number[] = [];
  for (let row = first; row <= Math.min(total, first + PAGE_SIZE - 1); row++) numbers.push(row);
  const outcomes = await results.outcomes(sheet.sheetId, numbers);
  const rows = numbers.map((row, i) => shownOutcome(row, outcomes[i], words));
  return { rows, matching: total, note };
}

/** A running sheet's rows of one status, among at most SCAN_LIMIT of its results. */
async function runningRowsOf(
  sheet: SheetProgress,
  results: RecordedResults,
  query: RowsQuery & { status: RowStatus },
  note: RowsNote,
  words: Words,
): Promise<RowsPage> {
  const found: Array<[number, RowOutcome]> = [];
  let cursor = '0';
  let looked = 0;
  do {
    const page = await results.scanOutcomes(sheet.sheetId, cursor, 1000);
    cursor = page.cursor;
    looked += page.outcomes.length;
    for (const entry of page.outcomes) if (entry[1].status === query.status) found.push(entry);
  } while (cursor !== '0' && looked < SCAN_LIMIT);
  found.sort((a, b) => a[0] - b[0]);
  const skip = (query.page - 1) * PAGE_SIZE;
  const rows = found.slice(skip, skip + PAGE_SIZE).map(([row, o]) => shownOutcome(row, o, words));
  const partial = cursor === '0' ? note : { ...note, looked };
  return { rows, matching: found.length, note: partial };
}

function shownOutcome(row: number, outcome: RowOutcome | undefined, words: Words): ShownRow {
  const empty = { address: '', contactName: '', sourceRow: '', files: '' };
  if (outcome === undefined) {
    return {
      row,
      line: '',
      reference: '',
      status: 'pending',
      orderId: '',
      fileIds: '',
      error: '',
      ...empty,
    };
  }
  return {
    row,
    line: outcome.line === null || outcome.line === undefined ? '' : String(outcome.line),
    reference: outcome.reference ?? '',
    status: outcome.status,
    orderId: outcome.orderId === undefined ? '' : String(outcome.orderId),
    fileIds: (outcome.fileIds ?? []).map((id) => id ?? '').join('|'),
    error: errorText(outcome, {}, words),
    ...empty,
  };
}
