/**
 * A workbook's worksheet as rows of text, as csv.ts reads a CSV's: the first worksheet or the one
 * asked for, the header in its first row that is not blank, every cell as text as Excel shows it
 * (cell-text.ts), each record with its Excel row number as its line. Streamed with exceljs'
 * streaming reader: rows are parsed as they are asked for; only the shared strings and styles are
 * kept whole. Run in a worker thread of bounded memory (workbook.ts), after workbook-zip.ts checked
 * the file.
 */
import ExcelJS from 'exceljs';

import { CellError, cellText } from './cell-text.js';
import { SheetError } from './errors.js';
import type { SourceRecord } from './types.js';

const BATCH = 1000;

interface WorkbookRows {
  header: string[];
  headerLine: number;
  /** The worksheet read, by its name. */
  worksheet: string;
  batches: AsyncGenerator<SourceRecord[]>;
}

type WorksheetReader = ExcelJS.stream.xlsx.WorksheetReader & { name?: string };
type RowReader = AsyncGenerator<ExcelJS.Row>;

/** A workbook's rows: its worksheet `worksheet` (a mapping's), else its first. */
export async function readWorkbookRows(path: string, worksheet?: string): Promise<WorkbookRows> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell a date from a number; hyperlinks are read by their text.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]();
  const close = () => {
    void sheets.return(undefined);
    (reader as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  };
  try {
    const found = await findWorksheet(reader, sheets, worksheet);
    const rows = found[Symbol.asyncIterator]() as RowReader;
    const { header, headerLine } = await readHeader(rows);
    return {
      header,
      headerLine,
      worksheet: found.name ?? worksheet ?? '',
      batches: records(rows, header.length, close),
    };
  } catch (error) {
    close();
    throw unreadable(error);
  }
}

async function findWorksheet(
  reader: ExcelJS.stream.xlsx.WorkbookReader,
  sheets: AsyncGenerator<ExcelJS.stream.xlsx.WorksheetReader>,
  worksheet: string | undefined,
): Promise<WorksheetReader> {
  const seen: string[] = [];
  for (;;) {
    const next = await sheets.next();
    if (next.done) break;
    const found = next.value as WorksheetReader;
    const names = sheetNames(reader);
    const wanted = worksheet ?? names[0];
    if (found.name !== undefined) seen.push(found.name);
    if (wanted === undefined || found.name === undefined || sameName(found.name, wanted))
      return found;
  }
  const names = sheetNames(reader);
  const listed = (names.length > 0 ? names : seen).map((name) => `"${name}"`).join(', ');
  if (worksheet === undefined) throw new SheetError('the workbook holds no worksheet.');
  throw new SheetError(
    `the workbook has no worksheet "${worksheet}" (the mapping's "worksheet"); its worksheets are ${listed}.`,
  );
}

/** The worksheets' names in the workbook's order, once its workbook part has been read. */
function sheetNames(reader: ExcelJS.stream.xlsx.WorkbookReader): string[] {
  const model = (reader as unknown as { model?: { sheets?: { name?: unknown }[] } }).model;
  return (model?.sheets ?? [])
    .map((sheet) => sheet.name)
    .filter((name): name is string => typeof name === 'string');
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The first row that is not blank, its cells trimmed. */
async function readHeader(rows: RowReader): Promise<{ header: string[]; headerLine: number }> {
  for (let last = 0; ;) {
    const next = await rows.next();
    if (next.done) {
      throw new SheetError('the sheet is empty: it needs a header row and at least one order.');
    }
    const line = lineOf(next.value, last);
    last = line;
    const { cells, errors } = rowCells(next.value);
    if (errors.length > 0) throw new SheetError(`the header row has ${errors.join('; ')}.`, line);
    if (cells.every((cell) => cell.trim() === '')) continue;
    return { header: trimEnd(cells.map((cell) => cell.trim())), headerLine: line };
  }
}

async function* records(
  rows: RowReader,
  headerWidth: number,
  close: () => void,
): AsyncGenerator<SourceRecord[]> {
  let row = 0;
  let last = 0;
  let batch: SourceRecord[] = [];
  try {
    for (;;) {
      const next = await rows.next();
      if (next.done) break;
      const line = lineOf(next.value, last);
      last = line;
      const { cells, errors } = rowCells(next.value);
      if (cells.every((cell) => cell.trim() === '') && errors.length === 0) continue;
      while (cells.length < headerWidth) cells.push('');
      row += 1;
      const record: SourceRecord = { row, line, data: cells };
      if (errors.length > 0) record.problem = `this row has ${errors.join('; ')}.`;
      batch.push(record);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } catch (error) {
    throw unreadable(error);
  } finally {
    close();
  }
}

/** Excel's own row number; a row written without one follows the one before. */
function lineOf(row: ExcelJS.Row, last: number): number {
  return Number.isInteger(row.number) && row.number > 0 ? row.number : last + 1;
}

/** A row's cells as text, from column A; the cells that show an error, described. */
function rowCells(row: ExcelJS.Row): { cells: string[]; errors: string[] } {
  const cells: string[] = [];
  const errors: string[] = [];
  row.eachCell((cell, column) => {
    const text = cellText(cell.value, cell.numFmt);
    while (cells.length < column - 1) cells.push('');
    if (text instanceof CellError) {
      errors.push(`${text.shows} in cell ${cell.address}: fix it in Excel or empty the cell`);
      cells.push('');
    } else cells.push(text);
  });
  return { cells, errors };
}

function trimEnd(header: string[]): string[] {
  let end = header.length;
  while (end > 0 && header[end - 1] === '') end -= 1;
  return header.slice(0, end);
}

/** What exceljs or the zip reader throws on a damaged workbook, as one plain sentence. */
export function unreadable(error: unknown): unknown {
  if (error instanceof SheetError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SheetError(
    `the workbook cannot be read (${reason.split('\n')[0]}): open it in Excel and save it again as .xlsx, or save it as CSV.`,
    undefined,
    { cause: error },
  );
}
