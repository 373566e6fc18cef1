/**
 * A search over the references, addresses and contacts of the latest reported sheets, read from
 * their report.csv files: nothing is indexed or kept. It is bounded (so many sheets, so many rows,
 * so much time, so many hits) and says how far it got, so that a huge reports folder makes it say
 * "not all was searched" rather than hang.
 */
import type { SheetProgress } from '../store/progress.js';
import { openReportRows, type ShownRow } from './report-csv.js';
import { isKnown } from '../errors.js';
import { SEARCH_TIME_MS } from '../policy.js';

export interface SearchLimits {
  /** Reported sheets read, newest first. */
  sheets: number;
  /** Rows read over all of them. */
  rows: number;
  /** Time spent reading. */
  ms: number;
  /** Hits kept: the search stops at this many. */
  hits: number;
}

export const SEARCH_LIMITS: SearchLimits = {
  sheets: 50,
  rows: 1_000_000,
  ms: SEARCH_TIME_MS,
  hits: 100,
};

/**
 * Why a search stopped: it read the latest `limit` reported sheets (`sheets`), found `limit`
 * rows (`hits`), read `limit` rows (`rows`), or ran for `limit` seconds (`time`).
 */
export interface SearchStop {
  why: 'sheets' | 'hits' | 'rows' | 'time';
  limit: number;
}

export interface SearchHit {
  sheetId: string;
  sheetName: string;
  /** Its sheet's report folder, where its status.csv is. */
  reportDir: string;
  row: ShownRow;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Reported sheets read to their end or until a limit. */
  sheets: number;
  rows: number;
  /** Why the search stopped before the last sheet it could read. */
  stopped?: SearchStop;
  /** Sheets not reported yet: not searched. */
  running: number;
  /** Reported sheets whose report.csv could not be read to its end (changed on disk): named. */
  unreadable: string[];
}

/**
 * What is compared: case, width and accents folded, so `KERKSTRAAT` finds `Kerkstraat` and
 * `helene` finds `Hélène` (names here are full of accents, and typed without them).
 */
export function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export async function searchReports(
  sheets: readonly SheetProgress[],
  query: string,
  limits: SearchLimits = SEARCH_LIMITS,
  now: () => number = Date.now,
): Promise<SearchResult> {
  const needle = folded(query);
  const reported = sheets.filter((s) => s.state === 'done' && s.reportDir !== undefined);
  const result: SearchResult = {
    hits: [],
    sheets: 0,
    rows: 0,
    running: sheets.filter((s) => s.state !== 'done').length,
    unreadable: [],
  };
  const deadline = now() + limits.ms;
  for (const sheet of reported) {
    if (result.sheets >= limits.sheets) {
      result.stopped = { why: 'sheets', limit: limits.sheets };
      break;
    }
    if (now() > deadline) {
      result.stopped = outOfTime(limits);
      break;
    }
    result.stopped = await searchOne(sheet, needle, result, { ...limits, deadline }, now);
    result.sheets += 1;
    if (result.stopped !== undefined) break;
  }
  return result;
}

/** Reads one report into `result`; returns why the search must stop, if it must. */
async function searchOne(
  sheet: SheetProgress,
  needle: string,
  result: SearchResult,
  limits: SearchLimits & { deadline: number },
  now: () => number,
): Promise<SearchStop | undefined> {
  const late = () => now() > limits.deadline;
  const report = await openReportRows(sheet.reportDir ?? '', { enough: late, rows: sheet.total });
  if (report === undefined) return undefined;
  try {
    for await (const row of report.rows) {
      result.rows += 1;
      if (matches(row, needle)) {
        const { sheetId, name: sheetName, reportDir = '' } = sheet;
        result.hits.push({ sheetId, sheetName, reportDir, row });
        if (result.hits.length >= limits.hits) return { why: 'hits', limit: limits.hits };
      }
      if (result.rows >= limits.rows) return { why: 'rows', limit: limits.rows };
      if (result.rows % 1000 === 0 && now() > limits.deadline) return outOfTime(limits);
    }
    // Ended early by `late`, among lines that are no rows.
    if (late()) return outOfTime(limits);
  } catch (error) {
    // One broken report does not stop the search of the others; it is named instead.
    if (!isKnown(error, 'report-csv.unreadable')) throw error;
    result.unreadable.push(sheet.name);
  } finally {
    await report.close();
  }
  return undefined;
}

function outOfTime(limits: SearchLimits): SearchStop {
  return { why: 'time', limit: limits.ms / 1000 };
}

function matches(row: ShownRow, needle: string): boolean {
  return (
    folded(row.reference).includes(needle) ||
    folded(row.address).includes(needle) ||
    folded(row.contactName).includes(needle)
  );
}
