/**
 * Workbooks built in tests with exceljs' writer. The importer reads a workbook's rows in a worker
 * thread that runs the built reader (dist/): run `npm run build` before these tests (`npm test`
 * does).
 */
import ExcelJS from 'exceljs';

export type Cell = ExcelJS.CellValue;

export interface WorksheetSpec {
  name: string;
  /** Rows from row 1; an empty array is a blank row. */
  rows: Cell[][];
}

/** Writes a workbook of these worksheets (in this order) at `path` with exceljs' writer. */
export async function writeWorkbook(
  path: string,
  sheets: readonly WorksheetSpec[],
): Promise<string> {
  const book = new ExcelJS.Workbook();
  for (const spec of sheets) {
    const sheet = book.addWorksheet(spec.name);
    spec.rows.forEach((cells, i) => {
      if (cells.length === 0) return;
      const row = sheet.getRow(i + 1);
      cells.forEach((value, column) => {
        const cell = row.getCell(column + 1);
        cell.value = value;
        if (value instanceof Date) cell.numFmt = 'yyyy-mm-dd';
      });
      row.commit();
    });
  }
  await book.xlsx.writeFile(path);
  return path;
}

/** A workbook's first (or named) worksheet as text rows, read with exceljs' whole-file reader. */
export async function readWorksheet(path: string, name?: string): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const sheet = name === undefined ? book.worksheets[0] : book.getWorksheet(name);
  if (sheet === undefined) throw new Error(`no worksheet ${name ?? '(first)'} in ${path}`);
  return sheet;
}
