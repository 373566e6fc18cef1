/**
 * A workbook written row by row (failed/ of a workbook sheet), created on the first row, with
 * exceljs' streaming writer: the header, then each row's cells as text, exactly as the workbook
 * reader gave them, so that a row read back unchanged reads the same. A cell that begins with `=`
 * is written as text, never as a formula. The worksheet keeps the original's name, so that a
 * mapping naming it (failed/mapping.json) still finds it when the folder is dropped back.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

import type ExcelJS from 'exceljs';

/** Excel's limits on a worksheet's name. */
const BAD_NAME = /[\\/?*[\]:]/;
const MAX_NAME = 31;

export class XlsxOut {
  #book: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  #sheet: ExcelJS.Worksheet | undefined;
  #file: WriteStream | undefined;

  constructor(
    readonly path: string,
    private readonly header: readonly string[],
    private readonly worksheet: string | undefined,
  ) {}

  async write(record: ReadonlyArray<string | number | null | undefined>): Promise<void> {
    if (!this.#sheet) {
      await mkdir(dirname(this.path), { recursive: true });
      // Loaded for the first failed row of a workbook only: exceljs is the heaviest module the
      // importer has, and every other import would pay for it at start-up, before its first row.
      const { default: excel } = await import('exceljs');
      this.#file = createWriteStream(this.path);
      this.#book = new excel.stream.xlsx.WorkbookWriter({
        stream: this.#file,
        useSharedStrings: true,
        useStyles: false,
      });
      this.#sheet = this.#book.addWorksheet(sheetName(this.worksheet));
      this.#sheet.addRow([...this.header]).commit();
    }
    const cells = record.map((cell) => (cell === undefined || cell === null ? '' : String(cell)));
    this.#sheet.addRow(cells).commit();
  }

  async close(): Promise<void> {
    if (!this.#book || !this.#file) return;
    const finished = once(this.#file, 'finish');
    await this.#book.commit();
    await finished;
  }
}

function sheetName(name: string | undefined): string {
  if (name === undefined || name.trim() === '' || BAD_NAME.test(name) || name.length > MAX_NAME)
    return 'Sheet1';
  return name;
}
