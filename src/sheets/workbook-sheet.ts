/**
 * A worksheet's rows, parsed as its part inflates: each row's cells as text (cell-text.ts), by
 * column from A, with its Excel row number. A cell or row written without its reference (`r`)
 * follows the one before, as the standard says. Only `<sheetData>` is read, with the scanner of
 * workbook-scan.ts (why not saxes: there).
 */
import { CellError, type CellTables, xmlCellText } from './cell-text.js';
import { SheetError } from './errors.js';
import { said } from './said.js';
import {
  type AttributeSpan,
  attributeValue,
  nextAttribute,
  type ScanHandlers,
  scanXml,
} from './workbook-scan.js';

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
    const r = this.#attribute(xml, from, to, 0x72 /* r */);
    const last = this.#lastLine;
    const line = r === undefined ? last + 1 : Number(r);
    if (!Number.isInteger(line) || line <= last || line > MAX_ROW)
      throw new SheetError(said('sheets.workbook.rowOutOfOrder', { row: r ?? String(line) }));
    this.#lastLine = line;
    this.#row = { line, cells: [], errors: [] };
    this.#column = 0;
  }

  readonly #span: AttributeSpan = { nameFrom: 0, nameTo: 0, valueFrom: 0, valueTo: 0 };

  /** The value of the one-letter attribute `letter` (a character code), if the tag has it. */
  #attribute(xml: string, from: number, to: number, letter: number): string | undefined {
    const span = this.#span;
    for (
      let at = nextAttribute(xml, from, to, span);
      at >= 0;
      at = nextAttribute(xml, at, to, span)
    )
      if (span.nameTo - span.nameFrom === 1 && xml.charCodeAt(span.nameFrom) === letter)
        return attributeValue(xml, span);
    return undefined;
  }

  /**
   * A cell's `r`, `t` and `s`, read where they are written: a worksheet holds millions of cells,
   * and a string and a call per attribute were most of the scanner's garbage.
   */
  #openCell(xml: string, from: number, to: number): void {
    const span = this.#span;
    let column = this.#column + 1;
    let reference: string | undefined;
    this.#type = 'n';
    this.#style = 0;
    let at = nextAttribute(xml, from, to, span);
    for (; at >= 0; at = nextAttribute(xml, at, to, span)) {
      if (span.nameTo - span.nameFrom !== 1) continue;
      const name = xml.charCodeAt(span.nameFrom);
      if (name === 0x72 /* r */) {
        column = columnOf(xml, span.valueFrom, span.valueTo);
        // Rare enough to cut as a string: a reference that is no cell, or that has an entity.
        if (column < 1 || column > MAX_COLUMN) {
          reference = attributeValue(xml, span);
          column = columnOf(reference, 0, reference.length);
        }
      } else if (name === 0x74 /* t */) this.#type = cellType(xml, span);
      else if (name === 0x73 /* s */) this.#style = styleIndex(xml, span);
    }
    if (column < 1 || column > MAX_COLUMN)
      throw new SheetError(
        said('sheets.workbook.cellBeyond', { cell: reference ?? String(column) }),
      );
    this.#column = column;
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

/** A cell's type: the common ones as constants, not cut from the text. */
function cellType(xml: string, span: AttributeSpan): string {
  if (span.valueTo - span.valueFrom === 1) {
    const code = xml.charCodeAt(span.valueFrom);
    if (code === 0x73) return 's';
    if (code === 0x6e) return 'n';
    if (code === 0x62) return 'b';
  }
  return attributeValue(xml, span);
}

/** A cell's style index, read from its digits; anything else as `Number` reads it. */
function styleIndex(xml: string, span: AttributeSpan): number {
  let index = 0;
  for (let i = span.valueFrom; i < span.valueTo; i++) {
    const digit = xml.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9 || i - span.valueFrom > 8) return Number(attributeValue(xml, span));
    index = index * 10 + digit;
  }
  return span.valueTo > span.valueFrom ? index : Number(attributeValue(xml, span));
}

/**
 * The column number of a reference such as `AB12` (its letters), 0 when it has none; read in the
 * XML where it is written (a reference with an entity in it is no reference Excel writes).
 */
function columnOf(xml: string, from: number, to: number): number {
  let column = 0;
  for (let i = from; i < to; i++) {
    const code = xml.charCodeAt(i) | 0x20; // lower case
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
