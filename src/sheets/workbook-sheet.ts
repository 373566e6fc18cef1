/**
 * A worksheet's rows, parsed as its part inflates: each row's cells as text (cell-text.ts), by
 * column from A, with its Excel row number. A cell or row written without its reference (`r`)
 * follows the one before, as the standard says. Only `<sheetData>` is read, with the scanner of
 * workbook-scan.ts (why not saxes: there).
 */
import { CellError, type CellTables, xmlCellText } from './cell-text.js';
import { SheetError } from './errors.js';
import { eachAttribute, type ScanHandlers, scanXml } from './workbook-scan.js';

/** Excel's own bounds: a reference beyond them is no cell Excel shows. */
const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_384;

export interface SheetRow {
  /** The Excel row number. */
  line: number;
  /** Its cells' text from column A; a cell in error is ''. */
  cells: string[];
  /** What is wrong with its cells in error, each naming the cell. */
  errors: string[];
}

/** The rows of a worksheet part's XML, as many at a time as one inflated chunk holds. */
export async function* worksheetRows(
  chunks: AsyncIterable<Buffer>,
  tables: CellTables,
): AsyncGenerator<SheetRow[]> {
  const reader = new RowReader(tables);
  for await (const _ of scanXml(chunks, reader)) {
    if (reader.rows.length > 0) yield reader.rows.splice(0);
  }
  if (reader.rows.length > 0) yield reader.rows;
}

/** The scanner's handlers: a state machine over rows, cells and their values. */
class RowReader implements ScanHandlers {
  readonly rows: SheetRow[] = [];
  #inData = false;
  #row: SheetRow | undefined;
  #column = 0;
  #type = 'n';
  #style = 0;
  #formula = false;
  #value: string | undefined;
  /** Whether text now belongs to the cell's value: in `<v>`, or in an inline string's `<t>`. */
  #capturing = false;
  #inInline = false;
  #phonetic = 0;
  #lastLine = 0;

  constructor(private readonly tables: CellTables) {}

  open(name: string, xml: string, from: number, to: number): void {
    if (!this.#inData) {
      if (name === 'sheetData') this.#inData = true;
      return;
    }
    switch (name) {
      case 'row':
        this.#openRow(xml, from, to);
        return;
      case 'c':
        this.#openCell(xml, from, to);
        return;
      case 'v':
        this.#capturing = !this.#inInline;
        if (this.#capturing) this.#value = '';
        return;
      case 'f':
        this.#formula = true;
        return;
      case 'is':
        this.#inInline = true;
        this.#value = '';
        return;
      case 'rPh':
        this.#phonetic += 1;
        return;
      case 't':
        this.#capturing = this.#inInline && this.#phonetic === 0;
        return;
    }
  }

  wantsText(): boolean {
    return this.#capturing;
  }

  text(text: string): void {
    if (this.#capturing) this.#value = (this.#value ?? '') + text;
  }

  close(name: string): void {
    if (!this.#inData) return;
    switch (name) {
      case 'v':
      case 't':
        this.#capturing = false;
        return;
      case 'rPh':
        this.#phonetic -= 1;
        return;
      case 'is':
        this.#inInline = false;
        return;
      case 'c':
        this.#closeCell();
        return;
      case 'row':
        if (this.#row !== undefined) this.rows.push(this.#row);
        this.#row = undefined;
        return;
      case 'sheetData':
        this.#inData = false;
    }
  }

  #openRow(xml: string, from: number, to: number): void {
    const { r } = this.#read(xml, from, to);
    const last = this.#lastLine;
    const line = r === undefined ? last + 1 : Number(r);
    if (!Number.isInteger(line) || line <= last || line > MAX_ROW)
      throw new SheetError(
        `the worksheet's row ${r ?? line} is out of order or beyond Excel's last row: the workbook is damaged; open it in Excel and save it again as .xlsx, or save it as CSV.`,
      );
    this.#lastLine = line;
    this.#row = { line, cells: [], errors: [] };
    this.#column = 0;
  }

  /** The attributes of the cell being opened (one object for all cells: no garbage per cell). */
  readonly #attributes = { r: undefined as string | undefined, t: 'n', s: 0 };
  readonly #cellAttribute = (name: string, value: string) => {
    if (name === 'r') this.#attributes.r = value;
    else if (name === 't') this.#attributes.t = value;
    else if (name === 's') this.#attributes.s = Number(value);
  };

  #read(xml: string, from: number, to: number): { r: string | undefined; t: string; s: number } {
    const a = this.#attributes;
    a.r = undefined;
    a.t = 'n';
    a.s = 0;
    eachAttribute(xml, from, to, this.#cellAttribute);
    return a;
  }

  #openCell(xml: string, from: number, to: number): void {
    const a = this.#read(xml, from, to);
    const column = a.r === undefined ? this.#column + 1 : columnOf(a.r);
    if (column < 1 || column > MAX_COLUMN)
      throw new SheetError(
        `the worksheet has a cell "${a.r ?? column}" beyond Excel's last column: the workbook is damaged; open it in Excel and save it again as .xlsx, or save it as CSV.`,
      );
    this.#column = column;
    this.#type = a.t;
    this.#style = a.s;
    this.#formula = false;
    this.#value = undefined;
    this.#capturing = false;
    this.#inInline = false;
  }

  #closeCell(): void {
    const row = this.#row;
    if (row === undefined) return;
    const text = xmlCellText(this.#type, this.#value, this.#style, this.#formula, this.tables);
    const { cells } = row;
    while (cells.length < this.#column - 1) cells.push('');
    const at = this.#column - 1;
    if (text instanceof CellError) {
      row.errors.push(
        `${text.shows} in cell ${columnName(this.#column)}${row.line}: fix it in Excel or empty the cell`,
      );
      cells[at] = '';
    } else cells[at] = text;
  }
}

/** The column number of a reference such as `AB12` (its letters), 0 when it has none. */
function columnOf(reference: string): number {
  let column = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i) | 0x20; // lower case
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
    if (column > MAX_COLUMN) return column;
  }
  return column;
}

function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(0x41 + ((n - 1) % 26)) + name;
  return name;
}
