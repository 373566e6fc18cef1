import type { Delimiter } from './delimiter.js';
import type { TextEncoding } from './scan.js';

export type SheetFormat = 'csv' | 'json' | 'ndjson' | 'xlsx';

/** How a sheet was read: for summaries, and to write reports back in the same shape. */
export interface SheetInfo {
  path: string;
  format: SheetFormat;
  sha256: string;
  bytes: number;
  encoding: TextEncoding;
  /** CSV, and `;` for a workbook (its reports' delimiter). */
  delimiter?: Delimiter;
  /** CSV and workbooks: the header row as written. */
  header?: string[];
  /** CSV and workbooks: the column holding each field, as the header names it. */
  columns?: Record<string, string>;
  /** A workbook's worksheet read, by its name. */
  worksheet?: string;
}

/** One record of a sheet, before its cells are mapped to order fields. */
export interface SourceRecord {
  /** 1-based record number (the header is not a record). */
  row: number;
  /** Physical line where the record starts (a workbook's: its Excel row); null inside a JSON array. */
  line: number | null;
  /** CSV and workbooks: the cells in header order. JSON/NDJSON: the object as written. */
  data: string[] | Record<string, unknown>;
  /** A problem with the record as a whole (an NDJSON line that is not JSON, a list instead of an object). */
  problem?: string;
}
