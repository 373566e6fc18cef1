/**
 * A workbook's worksheet as rows of text, as csv.ts reads a CSV's: the first worksheet or the one
 * asked for, the header in its first row that is not blank, every cell as text as Excel shows it
 * (cell-text.ts), each record with its Excel row number as its line. The zip is read through its
 * central directory (workbook-zip.ts), the parts found through their relationships
 * (workbook-parts.ts); the shared strings and styles are kept whole (workbook-tables.ts), the
 * worksheet is parsed as it inflates (workbook-sheet.ts), a batch at a time as asked. Nothing is
 * written to disk. Run in a worker thread of bounded memory (workbook.ts).
 */
import { type CellTables } from './cell-text.js';
import { SheetError } from './errors.js';
import { said } from './said.js';
import type { SourceRecord } from './types.js';
import { findParts, type Worksheet } from './workbook-parts.js';
import { type SheetRow, worksheetRows } from './workbook-sheet.js';
import { readDateStyles, readSharedStrings, SharedStrings } from './workbook-tables.js';
import { openWorkbookZip, saveAgain, type WorkbookZip } from './workbook-zip.js';

/**
 * A worksheet's XML, inflated, at most: 100,000 rows of 30 columns take about 120 MB (shared
 * strings) to 250 MB (inline strings); Excel's own limit of 1,048,576 rows bounds the rest.
 */
const MAX_WORKSHEET_BYTES = 512 * 1024 * 1024;
/**
 * A batch: this many records, or fewer when they are wide. Up to three are alive at once (being
 * validated, in transit, being read), each in both threads' heaps: 1,000 rows of 30 columns put
 * the peak RSS 10–15 MB higher than 250 did, for no measurable gain in speed.
 */
const BATCH_ROWS = 250;
const BATCH_CELLS = 15_000;

interface WorkbookRows {
  header: string[];
  headerLine: number;
  /** The worksheet read, by its name. */
  worksheet: string;
  batches: AsyncGenerator<SourceRecord[]>;
}

/** A workbook's rows: its worksheet `worksheet` (a mapping's), else its first. */
export async function readWorkbookRows(
  path: string,
  worksheet?: string,
  options: { checked?: boolean } = {},
): Promise<WorkbookRows> {
  // `checked`: read whole and found sound before (workbook-zip.ts).
  const zip = await openWorkbookZip(path, options);
  try {
    const parts = await findParts(zip);
    const found = chooseWorksheet(parts.worksheets, worksheet);
    const tables: CellTables = {
      sharedStrings:
        parts.sharedStrings === undefined
          ? SharedStrings.none
          : await readSharedStrings(zip, parts.sharedStrings),
      dateStyles: parts.styles === undefined ? [] : await readDateStyles(zip, parts.styles),
      date1904: parts.date1904,
    };
    const rows = rowsOf(zip, found, tables);
    const { header, headerLine, rest } = await readHeader(rows);
    return {
      header,
      headerLine,
      worksheet: found.name,
      batches: records(rest, rows, header.length, () => {
        zip.close();
      }),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function chooseWorksheet(worksheets: readonly Worksheet[], wanted: string | undefined): Worksheet {
  const found =
    wanted === undefined ? worksheets[0] : worksheets.find((sheet) => sameName(sheet.name, wanted));
  if (found !== undefined) return found;
  if (worksheets.length === 0) throw new SheetError(saveAgain(said('sheets.workbook.noWorksheet')));
  const listed = worksheets.map((sheet) => `"${sheet.name}"`).join(', ');
  throw new SheetError(said('sheets.workbook.worksheetNotFound', { wanted: wanted ?? '', listed }));
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * The worksheet's rows, as many at a time as an inflated chunk holds: an async generator's step
 * per row (a promise and a result object each) cost more than the rows' parsing.
 */
function rowsOf(zip: WorkbookZip, sheet: Worksheet, tables: CellTables): Rows {
  const label = said('sheets.workbook.part.worksheet', { sheet: sheet.name });
  const chunks = zip.chunks(sheet.part, MAX_WORKSHEET_BYTES, label);
  return worksheetRows(chunks, tables);
}

type Rows = AsyncGenerator<SheetRow[]>;

interface Header {
  header: string[];
  headerLine: number;
  /** The rows read with the header that come after it. */
  rest: SheetRow[];
}

/** The first row that is not blank, its cells trimmed. */
async function readHeader(rows: Rows): Promise<Header> {
  for (;;) {
    const next = await rows.next();
    if (next.done) {
      throw new SheetError(said('sheets.empty'));
    }
    const found = next.value.findIndex(
      (row) => row.errors.length > 0 || row.cells.some((cell) => cell.trim() !== ''),
    );
    if (found < 0) continue;
    const { cells, errors, line } = next.value[found] as SheetRow;
    if (errors.length > 0)
      throw new SheetError(said('sheets.header.cellErrors', { errors: errors.join('; ') }), line);
    const header = trimEnd(cells.map((cell) => cell.trim()));
    return { header, headerLine: line, rest: next.value.slice(found + 1) };
  }
}

async function* records(
  first: SheetRow[],
  more: Rows,
  headerWidth: number,
  close: () => void,
): AsyncGenerator<SourceRecord[]> {
  let row = 0;
  let batch: SourceRecord[] = [];
  let cellsInBatch = 0;
  try {
    for (let rows = first; ;) {
      for (const { cells, errors, line } of rows) {
        if (errors.length === 0 && cells.every((cell) => cell.trim() === '')) continue;
        while (cells.length < headerWidth) cells.push('');
        row += 1;
        const record: SourceRecord = { row, line, data: cells };
        if (errors.length > 0) record.problem = `this row has ${errors.join('; ')}.`;
        batch.push(record);
        cellsInBatch += cells.length;
        if (batch.length >= BATCH_ROWS || cellsInBatch >= BATCH_CELLS) {
          yield batch;
          batch = [];
          cellsInBatch = 0;
        }
      }
      const next = await more.next();
      if (next.done) break;
      rows = next.value;
    }
    if (batch.length > 0) yield batch;
  } finally {
    // Stopped early, the worksheet's inflating is ended too, as a loop over it would end it.
    try {
      await more.return(undefined);
    } finally {
      close();
    }
  }
}

function trimEnd(header: string[]): string[] {
  let end = header.length;
  while (end > 0 && header[end - 1] === '') end -= 1;
  return header.slice(0, end);
}
