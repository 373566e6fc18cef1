/**
 * A workbook cell as text, as Excel shows it in a cell formatted "General" (and as its CSV export
 * writes it): the importer reads a workbook's rows exactly as it reads the same rows saved as CSV.
 *
 * - a whole number without a decimal part (`1398`, not `1398.0`); any other number in its shortest
 *   form after Excel's own precision of 15 significant digits (`0.1 + 0.2` is `0.3`);
 * - a date cell as `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM:SS` when it holds a time of day too (rounded
 *   to the second); a formula formatted as a date likewise;
 * - a formula by the result Excel saved with it; one saved without a result is a problem;
 * - a boolean as `TRUE` / `FALSE`; rich text as its runs joined; a hyperlink by its text;
 * - an error (`#N/A`, `#DIV/0!`, …) is no value: the row gets a problem naming the cell.
 *
 * Number formats other than dates (percentages, currencies, thousands separators) are not applied:
 * the value is read as typed (`0.15` for a cell showing `15%`).
 */

/** A cell that shows an error, or that holds no value the importer can read. */
export class CellError {
  constructor(readonly shows: string) {}
}

/** Milliseconds from the Unix epoch to Excel's day 0 (1899-12-30, counting Excel's 1900 leap day). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/** The text of a cell's value (as exceljs reads it); `numFmt`: the cell's number format, if any. */
export function cellText(value: unknown, numFmt?: string): string | CellError {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return numFmt !== undefined && isDateFormat(numFmt) ? serialText(value) : numberText(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'object':
      return objectText(value, numFmt);
    default:
      return new CellError(`a value of kind ${typeof value}`);
  }
}

function objectText(value: object, numFmt: string | undefined): string | CellError {
  if (value instanceof Date) return dateText(value);
  const cell = value as Record<string, unknown>;
  if (Array.isArray(cell.richText)) return richText(cell.richText);
  if (typeof cell.error === 'string') return new CellError(cell.error);
  if ('formula' in cell || 'sharedFormula' in cell) {
    if (cell.result === undefined) return new CellError('a formula without a saved result');
    if (typeof cell.result === 'number' && Number.isNaN(cell.result))
      return new CellError('a formula whose result is an error');
    return cellText(cell.result, numFmt);
  }
  if ('text' in cell) return cellText(cell.text, numFmt);
  return new CellError('a value of an unknown kind');
}

function richText(runs: readonly unknown[]): string {
  let text = '';
  for (const run of runs) {
    const part = (run as { text?: unknown }).text;
    if (typeof part === 'string') text += part;
  }
  return text;
}

/** A number as Excel shows it in General format (without its cut to the column's width). */
export function numberText(value: number): string | CellError {
  if (!Number.isFinite(value)) return new CellError('#NUM!');
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value + 0); // -0 → 0
  return String(Number(value.toPrecision(15)));
}

/** A date from exceljs (Excel's serial read as UTC) as `YYYY-MM-DD[ HH:MM:SS]`. */
export function dateText(date: Date): string | CellError {
  const ms = date.getTime();
  if (Number.isNaN(ms)) return new CellError('#VALUE!');
  // Serials are fractions of a day: 12:00:00 may come back as 11:59:59.999.
  const rounded = new Date(Math.round(ms / 1000) * 1000);
  const iso = rounded.toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  return time === '00:00:00' ? day : `${day} ${time}`;
}

/** An Excel date serial (a formula's result formatted as a date) as text. */
export function serialText(serial: number): string | CellError {
  if (!Number.isFinite(serial) || serial < 0) return numberText(serial);
  return dateText(new Date(EXCEL_EPOCH_MS + serial * DAY_MS));
}

/**
 * Whether a number format shows a date or a time: it has a day, month, year, hour or second code
 * outside quoted text, escapes and bracketed parts (`[Red]`, `[$-409]`).
 */
export function isDateFormat(format: string): boolean {
  const codes = format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/General/gi, '');
  return /[dmyhs]/i.test(codes);
}
