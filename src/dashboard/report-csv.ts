/**
 * A report.csv read back as rows, streamed: a report can have a hundred thousand lines, and the
 * dashboard never holds more of it than the page it shows. Opened as attachments are (never
 * through a link), in a report folder that is not a link itself.
 */
import { Readable } from 'node:stream';

import { CsvError, parse } from 'csv-parse';

import { ROW_STATUSES, type RowStatus } from '../glossary.js';
import {
  AttachmentRefused,
  type OpenedFile,
  openInsideIfThere,
} from '../orders/open-attachment.js';
import { chain } from '../sheets/decode.js';
import { restoreCell } from '../sheets/excel-text.js';
import { Refused } from '../errors.js';

/** No line the importer writes comes near this: a longer one is a report changed on disk. */
export const MAX_REPORT_LINE = 1024 * 1024;

/** A row as the dashboard shows it. */
export interface ShownRow {
  row: number;
  line: string;
  reference: string;
  /** `pending` for a row of a running sheet not final yet. */
  status: RowStatus | 'pending';
  orderId: string;
  fileIds: string;
  /** The row's attachments as its sheet names them, `|`-separated (report.csv's `files`). */
  files: string;
  error: string;
  address: string;
  contactName: string;
  sourceRow: string;
}

/** How far a report is read: a report changed on disk may hold millions of lines. */
export interface ReportBounds {
  /**
   * Asked every thousand lines, rows or not: true ends the rows there. Lines that are no rows are
   * never seen by a reader counting rows.
   */
  enough?: () => boolean;
  /**
   * The rows its sheet had: the importer writes one record each after the header, so a report
   * going on past them was changed on disk, and is refused there rather than read on.
   */
  rows?: number;
}

/** The report's rows in order, or undefined when there is no such plain file (yet). */
export async function openReportRows(
  reportDir: string,
  bounds: ReportBounds = {},
): Promise<{ rows: AsyncIterable<ShownRow>; close(): Promise<void> } | undefined> {
  const file = await openReportFile(reportDir);
  if (file === undefined) return undefined;
  const stream = file.stream();
  const rows = readRows(stream, bounds);
  return {
    rows,
    close: async () => {
      stream.destroy();
      await file.close();
    },
  };
}

async function openReportFile(dir: string): Promise<OpenedFile | undefined> {
  return openInsideIfThere(dir, 'report.csv').catch((error: unknown) => {
    if (error instanceof AttachmentRefused) return undefined;
    throw error;
  });
}

/**
 * The records of a CSV file the importer wrote, whose header begins with `row`: its delimiter is
 * the one after `row` (the input's own, `,` or `;` or a tab; `,` for a header that does not begin
 * so); a line longer than `maxLine` is a CsvError (CSV_MAX_RECORD_SIZE), not a file read to its
 * end as one cell. Undefined for an empty file.
 */
export async function importerCsvRecords(
  stream: Readable,
  maxLine: number,
): Promise<(AsyncIterable<string[]> & { destroy(): void }) | undefined> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  if (first.done === true) return undefined;
  const opening: Buffer = first.value;
  const head = opening.toString('utf8').replace(/^\uFEFF/, '');
  const delimiter = /^row([,;\t])/.exec(head)?.[1] ?? ',';
  async function* again(): AsyncGenerator<Buffer> {
    yield opening;
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
      yield next.value;
    }
  }
  return chain(
    Readable.from(again()),
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: maxLine,
    }),
  ) as AsyncIterable<string[]> & { destroy(): void };
}

/**
 * The rows of a report.csv stream. Its delimiter is the one after `row` in its header (the
 * input's own, `,` or `;` or a tab); its columns are found by name, so a report written before
 * the columns for people were added reads too, without them.
 */
async function* readRows(stream: Readable, bounds: ReportBounds): AsyncGenerator<ShownRow> {
  const parser = await importerCsvRecords(stream, MAX_REPORT_LINE);
  if (parser === undefined) return;
  const { enough = () => false, rows = Number.POSITIVE_INFINITY } = bounds;
  let at: Map<string, number> | undefined;
  let records = 0;
  try {
    for await (const record of parser) {
      records += 1;
      if (records % 1000 === 0 && enough()) return;
      if (records > rows + 1) throw pastItsRows(rows, records);
      if (at === undefined) {
        at = new Map(record.map((name, i) => [name, i]));
        continue;
      }
      const shown = shownRow(record, at);
      if (shown !== undefined) yield shown;
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw unreadable(error);
  }
}

function pastItsRows(rows: number, record: number): Refused {
  return new Refused(
    'report-csv.unreadable',
    `its report.csv has more records than its sheet has rows (${rows}; record ${record}, its header counted): it was changed since the importer wrote it.`,
  );
}

function unreadable(error: CsvError): Refused {
  const line = (error as CsvError & { lines?: number }).lines;
  const at = line === undefined ? '' : ` at line ${line}`;
  const why =
    error.code === 'CSV_MAX_RECORD_SIZE'
      ? `has a line${at} longer than ${MAX_REPORT_LINE / 1024 / 1024} MB, which no report has`
      : `cannot be read${at} (${error.message})`;
  return new Refused(
    'report-csv.unreadable',
    `its report.csv ${why}: it was changed since the importer wrote it.`,
    { cause: error },
  );
}

function shownRow(record: string[], at: ReadonlyMap<string, number>): ShownRow | undefined {
  const cell = (name: string) => restoreCell(record[at.get(name) ?? -1] ?? '');
  const row = Number(cell('row'));
  const status = ROW_STATUSES.find((s) => s === cell('status'));
  if (!Number.isInteger(row) || status === undefined) return undefined;
  return {
    row,
    line: cell('line'),
    reference: cell('reference'),
    status,
    orderId: cell('order_id'),
    fileIds: cell('file_ids'),
    files: cell('files'),
    error: cell('error'),
    address: cell('address'),
    contactName: cell('contact_name'),
    sourceRow: cell('source_row'),
  };
}
