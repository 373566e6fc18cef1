import { type CsvError, type Info, parse } from 'csv-parse';

import { chain, decodedStream } from './decode.js';
import { type Delimiter, detectDelimiter } from './delimiter.js';
import { SheetError } from './errors.js';
import type { SheetScan } from './scan.js';
import type { SourceRecord } from './types.js';

/** A record this large is a quote that is never closed, not an order. */
const MAX_RECORD_CHARS = 1024 * 1024;

export interface CsvSheet {
  delimiter: Delimiter;
  header: string[];
  records: AsyncIterable<SourceRecord>;
}

/**
 * Opens a CSV sheet as a stream of records: the delimiter detected from the header line, quoted
 * fields holding delimiters, doubled quotes and line breaks, each record with the physical line
 * it starts on. Rows whose cells are all empty (Excel writes `;;;` for blank rows) are skipped.
 */
export async function openCsv(path: string, scan: SheetScan): Promise<CsvSheet> {
  const delimiter = detectDelimiter(scan.head);
  const parser = chain(
    decodedStream(path, scan),
    parse({
      delimiter,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  const iterator = (parser as AsyncIterable<{ record: string[]; info: Info }>)[
    Symbol.asyncIterator
  ]();
  const lines = new LineCounter();

  const first = await nextRecord(iterator);
  if (first.done) throw new SheetError('the sheet has no header row.');
  const header = first.value.record;
  const headerLine = lines.start(first.value);
  if (header.every((cell) => cell.trim() === '')) {
    throw new SheetError(
      'the header row is empty: the first row must name the columns.',
      headerLine,
    );
  }

  async function* records(): AsyncGenerator<SourceRecord> {
    let row = 0;
    try {
      for (;;) {
        const next = await nextRecord(iterator);
        if (next.done) return;
        const line = lines.start(next.value);
        if (next.value.record.every((cell) => cell.trim() === '')) continue;
        row += 1;
        yield { row, line, data: next.value.record };
      }
    } finally {
      parser.destroy();
    }
  }
  return { delimiter, header, records: records() };
}

async function nextRecord(
  iterator: AsyncIterator<{ record: string[]; info: Info }>,
): Promise<IteratorResult<{ record: string[]; info: Info }>> {
  try {
    return await iterator.next();
  } catch (error) {
    throw csvSheetError(error);
  }
}

/**
 * Tracks where each record starts. csv-parse's own line count drifts after a CRLF inside a quoted
 * field, so count from the records: a record spans one line plus the line breaks in its cells,
 * and skipped blank lines come before the next one.
 */
class LineCounter {
  #next = 1;
  #emptyLines = 0;

  start({ record, info }: { record: string[]; info: Info }): number {
    this.#next += info.empty_lines - this.#emptyLines;
    this.#emptyLines = info.empty_lines;
    const line = this.#next;
    let breaks = 0;
    for (const cell of record) {
      for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) breaks += 1;
    }
    this.#next += 1 + breaks;
    return line;
  }
}

const CSV_MESSAGES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED:
    'a quoted cell is never closed: a `"` opens a cell that runs to the end of the file.',
  CSV_MAX_RECORD_SIZE:
    'a record is larger than 1 MB: probably a `"` that opens a cell and is never closed.',
  CSV_INVALID_CLOSING_QUOTE:
    'a quoted cell has text after its closing quote; write a quote inside a quoted cell as "".',
  INVALID_OPENING_QUOTE: 'a quote opens in the middle of a cell.',
};

function csvSheetError(error: unknown): unknown {
  const csv = error as Partial<CsvError> & { lines?: number };
  if (typeof csv.code !== 'string') return error;
  const message = CSV_MESSAGES[csv.code] ?? `the CSV cannot be read (${csv.message ?? csv.code}).`;
  return new SheetError(message, csv.lines, { cause: error });
}
