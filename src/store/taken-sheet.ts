/**
 * The one pass over a sheet when it is queued, after its private copy was taken and scanned
 * (sheet-copy.ts): its records read to the end as written (proving it readable, validating
 * nothing), counted, and what the report echoes of each row written beside the copy (`rows.echo`, one JSON line per
 * row that has any); for the hot folder, which makes this pass before the sheet leaves the inbox,
 * also the attachments its `files` cells name. Later stages take these from the sheet's record
 * and that file instead of reading the sheet again; only the rows' own pass (and failed/'s, for
 * the rows it needs) reads it.
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import type { Mapping } from '../orders/mapping.js';
import {
  echoOf,
  NO_ECHO,
  type RowEcho,
  sourceRowColumn,
  sourceRowOf,
  sourceSheetColumn,
  sourceSheetOf,
} from '../orders/row-echo.js';
import { csvLayout } from '../sheets/csv.js';
import { SheetError } from '../sheets/errors.js';
import { readRecords, type SheetRecords } from '../sheets/records.js';
import type { CsvLayout, SheetScan } from '../sheets/scan.js';
import type { SheetInfo, SourceRecord } from '../sheets/types.js';

/** What the pass found, kept in the sheet's record (sheet-store.ts, `scan`). */
export interface ScannedSheet {
  /** The scan of the copy's bytes, as the copy was taken: no later read scans them again. */
  bytes: number;
  encoding: SheetScan['encoding'];
  bom: boolean;
  layout?: CsvLayout;
  /** Records read to the end of the sheet. */
  rows: number;
  /** The echo file beside the copy was written. */
  echo: boolean;
}

export interface TakenPass {
  scanned: ScannedSheet;
  info: SheetInfo;
  /**
   * When asked for (`files`): every attachment path the rows' `files` cells give, valid rows or
   * not, each once, as validation splits the cell (a record that is none names nothing).
   */
  files?: string[];
}

export interface PassOptions {
  mapping?: Mapping;
  /** Where the echo file goes (`echoFilePath`). */
  echo: string;
  /** Collect the attachments the rows name (`TakenPass.files`). */
  files?: boolean;
}

/** The echo file of sheet `sheetId`, beside its copy (no sheet is named so: it has no sheet's extension). */
export function echoFilePath(sheetsDir: string, sheetId: string): string {
  return join(sheetsDir, sheetId, 'rows.echo');
}

/**
 * Reads the copy at `copy` once, its scan given; undefined when it cannot be read (the sheet job
 * then reads it and says why, as for any unreadable sheet).
 */
export async function passOverTaken(
  copy: string,
  scan: SheetScan,
  options: PassOptions,
): Promise<TakenPass | undefined> {
  try {
    return await readTaken(copy, scan, options);
  } catch (error) {
    if (error instanceof SheetError) return undefined;
    throw error;
  }
}

/** As `passOverTaken`, but a sheet that cannot be read is a SheetError saying why. */
export async function readTaken(
  copy: string,
  scan: SheetScan,
  options: PassOptions,
): Promise<TakenPass> {
  const partial = `${options.echo}.partial`;
  try {
    const records = await readRecords(copy, options.mapping, scan);
    // As the CSV reader found it in the head, which is not kept.
    const layout =
      records.info.format === 'csv' ? (scan.layout ?? csvLayout(scan.head)) : undefined;
    const files = options.files === true ? new Set<string>() : undefined;
    const rows = await writeEchoes(records, partial, files);
    await rename(partial, options.echo);
    const { bytes, encoding, bom } = scan;
    const scanned = { bytes, encoding, bom, rows, echo: true, ...(layout && { layout }) };
    return { scanned, info: records.info, ...(files && { files: [...files] }) };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Writes each record's echo as it is read (a batch at a time: never the sheet in memory), and
 * adds the attachments it names to `files` when given; returns the rows.
 */
async function writeEchoes(
  records: SheetRecords,
  path: string,
  files?: Set<string>,
): Promise<number> {
  const out = await open(path, 'wx', 0o600);
  const header = records.info.header ?? [];
  const sourceAt = { row: sourceRowColumn(header), sheet: sourceSheetColumn(header) };
  let rows = 0;
  try {
    for await (const batch of records.batches) {
      let lines = '';
      for (const record of batch) {
        rows = record.row;
        if (record.problem !== undefined) continue;
        if (files !== undefined) for (const file of records.filesOf(record)) files.add(file);
        lines += echoLine(records, record, sourceAt);
      }
      if (lines !== '') await out.write(lines);
    }
  } finally {
    await out.close();
  }
  return rows;
}

function echoLine(
  records: SheetRecords,
  record: SourceRecord,
  at: { row: number; sheet: number },
): string {
  const { address, contactName } = echoOf(records.cellsOf(record));
  const sourceRow = sourceRowOf(record.data, at.row);
  const sourceSheet = sourceSheetOf(record.data, at.sheet);
  const files = records.filesOf(record).join('|');
  const empty = [address, contactName, sourceRow, files].every((text) => text === '');
  if (empty) return '';
  // The sheet's id and the files last: an echo file of an older version has four, and is read the same.
  return `${JSON.stringify([record.row, address, contactName, sourceRow, sourceSheet, files])}\n`;
}

/**
 * The echoes of a sheet's rows from its echo file, asked for in increasing row order; a row the
 * file does not name echoes nothing.
 */
export function readEchoes(path: string): {
  of(row: number): Promise<RowEcho>;
  close(): void;
} {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
  let next: [number, RowEcho] | undefined;
  let done = false;
  const advance = async () => {
    const line = await lines.next();
    if (line.done === true) {
      done = true;
      next = undefined;
      return;
    }
    const [row, address, contactName, sourceRow, sourceSheet = '', files = ''] = JSON.parse(
      line.value,
    ) as [number, string, string, string, string?, string?];
    next = [row, { address, contactName, sourceRow, sourceSheet, files }];
  };
  return {
    async of(row) {
      while (!done && (next === undefined || next[0] < row)) await advance();
      return next !== undefined && next[0] === row ? next[1] : NO_ECHO;
    },
    close() {
      stream.destroy();
    },
  };
}
