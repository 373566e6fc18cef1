/**
 * A sheet's status.csv (written by `order-importer status` beside its report.csv) read back line
 * by line: one line per inspection of each order the sheet created. It is read as report.csv is
 * (never through a link, its delimiter the one after `row`, formula guards dropped), and it is
 * hostile until read: its size, its lines, their number and each cell are bounded, and a file
 * that is not as the importer writes it is said to be so (Refused, 'status-csv.unreadable'),
 * never half shown. The status the importer adds is read back as `not found` (the page says it
 * in its reader's words), the API's as written.
 */
import type { Readable } from 'node:stream';

import { CsvError } from 'csv-parse';

import {
  AttachmentRefused,
  type OpenedFile,
  openInsideIfThere,
} from '../orders/open-attachment.js';
import { restoreCell } from '../sheets/excel-text.js';
import { statusRead } from '../notify/status-words.js';
import { STATUS_COLUMNS, STATUS_FILE } from '../status/status-csv.js';
import { importerCsvRecords } from './report-csv.js';
import { Refused } from '../errors.js';

// What status.csv is, as the status stage writes it: its name and its columns, in order.
export { STATUS_COLUMNS, STATUS_FILE };

/** Columns a status.csv written before them lacks: read as empty. */
const LATER_COLUMNS: ReadonlySet<string> = new Set(['address', 'contact_name']);

export interface StatusLimits {
  /** The largest file read at all. */
  bytes: number;
  /** The longest line. */
  line: number;
  /** The most lines. */
  lines: number;
  /** A cell longer than this is cut (with `…`): nothing shown needs more. */
  cell: number;
}

/**
 * A hundred thousand orders of three inspections each, with long cancel reasons, stay well
 * under these; a file over them was not written by the importer, and reading it would cost the
 * dashboard more than it is worth.
 */
export const STATUS_LIMITS: StatusLimits = {
  bytes: 64 * 1024 * 1024,
  line: 64 * 1024,
  lines: 500_000,
  cell: 1000,
};

/** One line of status.csv: one inspection of an order (or an order without any). */
export interface StatusLine {
  row: number;
  reference: string;
  orderId: string;
  orderStatus: string;
  cancelReason: string;
  productId: string;
  productName: string;
  /** `YYYY-MM-DD HH:MM:SS` as the API gives it, or empty. */
  inspectionDate: string;
  inspectorName: string;
  checkedAt: string;
  /** `Kerkstraat 12, 9000 Gent`; empty in a status.csv written before it had addresses. */
  address: string;
  contactName: string;
}

/** Whether the reading goes on after a line. */
export type Visit = (line: StatusLine) => 'more' | 'enough';

/**
 * Hands each line of the folder's status.csv to `visit`, in file order; false when the folder
 * has no status.csv (yet). A file it cannot take is Refused ('status-csv.unreadable').
 */
export async function eachStatusLine(
  reportDir: string,
  visit: Visit,
  limits: StatusLimits = STATUS_LIMITS,
): Promise<boolean> {
  const file = await openStatusFile(reportDir);
  if (file === undefined) return false;
  if (file.size > limits.bytes) {
    await file.close();
    throw new Refused(
      'status-csv.unreadable',
      `it is ${megabytes(file.size)} MB, more than the ${megabytes(limits.bytes)} MB the dashboard reads of it.`,
    );
  }
  const stream = file.stream();
  try {
    await readLines(stream, visit, limits);
    return true;
  } finally {
    stream.destroy();
    await file.close();
  }
}

async function openStatusFile(dir: string): Promise<OpenedFile | undefined> {
  return openInsideIfThere(dir, STATUS_FILE).catch((error: unknown) => {
    if (!(error instanceof AttachmentRefused)) throw error;
    throw new Refused(
      'status-csv.unreadable',
      'it is a symbolic link or not a plain file: it is not read.',
      {
        cause: error,
      },
    );
  });
}

async function readLines(stream: Readable, visit: Visit, limits: StatusLimits): Promise<void> {
  const parser = await importerCsvRecords(stream, limits.line);
  if (parser === undefined) throw new Refused('status-csv.unreadable', 'it is empty.');
  let at: ReadonlyMap<string, number> | undefined;
  let lines = 0;
  try {
    for await (const record of parser) {
      lines += 1;
      if (lines > limits.lines) {
        throw new Refused(
          'status-csv.unreadable',
          `it has more than ${limits.lines} lines, which none has.`,
        );
      }
      if (at === undefined) {
        at = columnsOf(record);
        continue;
      }
      const line = statusLine(record, at, limits.cell);
      if (line !== undefined && visit(line) === 'enough') return;
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw unreadable(error, limits);
  } finally {
    parser.destroy();
  }
}

/** Where each column is, or why this is no status.csv's header. */
function columnsOf(header: string[]): ReadonlyMap<string, number> {
  const at = new Map(header.map((name, i) => [name.trim(), i]));
  const missing = STATUS_COLUMNS.filter((name) => !at.has(name) && !LATER_COLUMNS.has(name));
  if (missing.length > 0) {
    const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
    throw new Refused(
      'status-csv.unreadable',
      `its header lacks ${missing.slice(0, 3).join(', ')}${more}: it is not as the importer writes it.`,
    );
  }
  return at;
}

function statusLine(
  record: string[],
  at: ReadonlyMap<string, number>,
  longest: number,
): StatusLine | undefined {
  const cell = (name: (typeof STATUS_COLUMNS)[number]) =>
    cut(restoreCell(record[at.get(name) ?? -1] ?? ''), longest);
  const row = Number(cell('row'));
  if (!Number.isSafeInteger(row) || row < 1) return undefined;
  return {
    row,
    reference: cell('reference'),
    orderId: cell('order_id'),
    // The importer's `not found`, in whichever language the office's status.csv says it.
    orderStatus: statusRead(cell('order_status')),
    cancelReason: cell('cancel_reason'),
    productId: cell('product_id'),
    productName: cell('product_name'),
    inspectionDate: cell('inspection_date'),
    inspectorName: cell('inspector_name'),
    checkedAt: cell('checked_at'),
    address: cell('address'),
    contactName: cell('contact_name'),
  };
}

function cut(text: string, longest: number): string {
  return text.length <= longest ? text : `${text.slice(0, longest)}…`;
}

function unreadable(error: CsvError, limits: StatusLimits): Refused {
  const line = (error as CsvError & { lines?: number }).lines;
  const at = line === undefined ? '' : ` at line ${line}`;
  const why =
    error.code === 'CSV_MAX_RECORD_SIZE'
      ? `it has a line${at} longer than ${limits.line / 1024} KB, which none has.`
      : `it is not CSV as the importer writes it${at} (${error.message}).`;
  return new Refused('status-csv.unreadable', why, { cause: error });
}

function megabytes(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}
