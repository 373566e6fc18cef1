import { type CsvError, parse } from 'csv-parse';

import type { MessageKey } from '../language/words.js';
import { readBatches } from './batches.js';
import { chain, csvInput } from './decode.js';
import { type Delimiter, detectDelimiter, separatorHint } from './delimiter.js';
import { SheetError } from './errors.js';
import { said } from './said.js';
import { restoreCell } from './excel-text.js';
import type { CsvLayout, SheetScan } from './scan.js';
import type { SourceRecord } from './types.js';

/** A record this large is a quote that is never closed, not an order. */
const MAX_RECORD_CHARS = 1024 * 1024;

export interface CsvSheet {
  delimiter: Delimiter;
  /** Column names as written, trimmed. */
  header: string[];
  headerLine: number;
  batches: AsyncIterable<SourceRecord[]>;
}

/** A CSV's delimiter, from its `sep=` line or detected in its header line. */
export function csvLayout(head: string): CsvLayout {
  const hint = separatorHint(head);
  return { delimiter: hint ?? detectDelimiter(head), separatorLine: hint !== undefined };
}

/**
 * Opens a CSV sheet as a stream of records: the delimiter detected from the header line, quoted
 * fields holding delimiters, doubled quotes and line breaks, each record with the physical line
 * it starts on. Rows whose cells are all empty (Excel writes `;;;` for blank rows) are skipped.
 */
export async function openCsv(path: string, scan: SheetScan): Promise<CsvSheet> {
  const { delimiter, separatorLine } = scan.layout ?? csvLayout(scan.head);
  const parser = chain(
    csvInput(path, scan),
    // No `info`: it costs a third of the parse, and lines are counted from the records instead.
    parse({
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  const raw = readBatches<string[]>(parser);
  const lines = new LineCounter();
  let pending: string[][] = [];

  // The header: the first record that is not blank (nor Excel's `sep=` line).
  let header: string[] | undefined;
  let headerLine = 1;
  let skip = separatorLine ? 1 : 0;
  while (header === undefined) {
    if (pending.length === 0) {
      const next = await nextBatch(raw);
      if (next.done) throw new SheetError(said('sheets.csv.noHeader'));
      pending = next.value;
    }
    const record = pending.shift() ?? [];
    headerLine = lines.start(record);
    if (skip > 0) skip -= 1;
    else if (!isBlank(record)) header = record.map((name) => restoreCell(name).trim());
  }
  if (header.every((name) => name === '')) {
    throw new SheetError(said('sheets.csv.emptyHeader'), headerLine);
  }

  let row = 0;
  const toRecords = (records: readonly string[][]): SourceRecord[] => {
    const out: SourceRecord[] = [];
    for (const data of records) {
      const line = lines.start(data);
      if (isBlank(data)) continue;
      restoreCells(data);
      row += 1;
      out.push({ row, line, data });
    }
    return out;
  };
  async function* batches(): AsyncGenerator<SourceRecord[]> {
    try {
      if (pending.length > 0) yield toRecords(pending);
      for (;;) {
        const next = await nextBatch(raw);
        if (next.done) return;
        const records = toRecords(next.value);
        if (records.length > 0) yield records;
      }
    } finally {
      parser.destroy();
    }
  }
  return { delimiter, header, headerLine, batches: batches() };
}

/**
 * Drops the `'` the importer's own CSV files put before a formula character (see excel-text.ts),
 * in place: one comparison per cell for the cells that do not begin with a quote.
 */
function restoreCells(record: string[]): void {
  for (let i = 0; i < record.length; i++) {
    const cell = record[i] as string;
    if (cell.charCodeAt(0) === 0x27) record[i] = restoreCell(cell);
  }
}

/** A blank line, or Excel's `;;;` for a row with nothing in it. */
function isBlank(record: readonly string[]): boolean {
  return record.every((cell) => cell.trim() === '');
}

async function nextBatch(
  batches: AsyncGenerator<string[][]>,
): Promise<IteratorResult<string[][], undefined>> {
  try {
    return (await batches.next()) as IteratorResult<string[][], undefined>;
  } catch (error) {
    throw csvSheetError(error);
  }
}

/**
 * Tracks where each record starts, counting from the records themselves (csv-parse's own count
 * drifts after a CRLF inside a quoted cell): a record spans one line plus the line breaks in its
 * cells, and a blank line is a record of one empty cell.
 */
class LineCounter {
  #next = 1;

  start(record: readonly string[]): number {
    const line = this.#next;
    let breaks = 0;
    for (const cell of record) {
      for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) breaks += 1;
    }
    this.#next += 1 + breaks;
    return line;
  }
}

const CSV_MESSAGES: Record<string, MessageKey> = {
  CSV_QUOTE_NOT_CLOSED: 'sheets.csv.quoteNotClosed',
  CSV_MAX_RECORD_SIZE: 'sheets.csv.recordTooLarge',
  CSV_INVALID_CLOSING_QUOTE: 'sheets.csv.textAfterQuote',
  INVALID_OPENING_QUOTE: 'sheets.csv.quoteInCell',
};

function csvSheetError(error: unknown): unknown {
  const csv = error as Partial<CsvError> & { lines?: number };
  if (typeof csv.code !== 'string') return error;
  const key = CSV_MESSAGES[csv.code];
  const message =
    key === undefined
      ? said('sheets.csv.unreadable', { detail: csv.message ?? csv.code })
      : said(key);
  return new SheetError(message, csv.lines, { cause: error });
}
