/**
 * The workbook twin of a generated CSV sheet, as Excel would save it: one worksheet, shared
 * strings, and the cells Excel takes for numbers (postal codes, house numbers, counts) as numbers.
 * Written with exceljs' streaming writer, row by row.
 */
import { createReadStream } from 'node:fs';

import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';

/** A cell Excel would turn into a number when typed: digits, without a leading zero. */
const NUMBER = /^(0|[1-9]\d{0,14})(\.\d+)?$/;

/** Writes `<csv>` as the workbook `path`; resolves with its row count (the header not counted). */
export async function workbookOf(csv: string, path: string): Promise<number> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: true,
    useStyles: false,
  });
  const sheet = book.addWorksheet('Orders');
  let rows = -1;
  for await (const record of createReadStream(csv).pipe(parse()) as AsyncIterable<string[]>) {
    const cells =
      rows < 0 ? record : record.map((cell) => (NUMBER.test(cell) ? Number(cell) : cell));
    sheet.addRow(cells).commit();
    rows += 1;
  }
  sheet.commit();
  await book.commit();
  return rows;
}
