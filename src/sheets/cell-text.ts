/**
 * A workbook cell as text, as Excel shows it in a cell formatted "General" (and as its CSV export
 * writes it): the importer reads a workbook's rows exactly as it reads the same rows saved as CSV.
 *
 * - a whole number without a decimal part (`1398`, not `1398.0`); any other number in its shortest
 *   form after Excel's own precision of 15 significant digits (`0.1 + 0.2` is `0.3`);
 * - a date cell as `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM:SS` when it holds a time of day too (rounded
 *   to the second), in the 1900 or the 1904 date system; a formula formatted as a date likewise; a
 *   date outside the years Excel shows (1900–9999; Excel shows `#####`) is a problem;
 * - a formula by the result Excel saved with it; one saved without a result is a problem;
 * - a boolean as `TRUE` / `FALSE`; text as written (rich text's runs joined: workbook-tables.ts);
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
/** Days from the 1900 system's day 0 to the 1904 system's (1904-01-01). */
const DAYS_1904 = 1462;
/** 9999-12-31, the last day Excel shows, in the 1900 system; the day after it is out of range. */
const LAST_SERIAL = 2_958_466;

/** What a worksheet's cells point into: shared strings, date styles, the date system. */
export interface CellTables {
  /** The shared strings' texts by index (workbook-tables.ts). */
  sharedStrings: { at(index: number): string | undefined };
  /** For each cell style (`s`), whether its number format shows a date. */
  dateStyles: readonly boolean[];
  date1904: boolean;
}

/**
 * A worksheet cell's text from its XML: its type (`t`), its style (`s`), its value (`<v>`, or an
 * inline string's text), and whether it holds a formula.
 */
export function xmlCellText(
  type: string,
  value: string | undefined,
  style: number,
  formula: boolean,
  tables: CellTables,
): string | CellError {
  if (value === undefined) return formula ? new CellError('a formula without a saved result') : '';
  switch (type) {
    case 's': {
      const text = tables.sharedStrings.at(Number(value));
      return text ?? new CellError("a text missing from the workbook's table of texts");
    }
    case 'inlineStr':
    case 'str':
      return value;
    case 'b':
      return booleanText(value);
    case 'e':
      return new CellError(value.trim() || '#VALUE!');
    case 'd':
      return isoDateText(value);
    default: {
      if (value.trim() === '') return '';
      const number = Number(value);
      if (Number.isNaN(number)) return new CellError(`a number that cannot be read ("${value}")`);
      if (tables.dateStyles[style] !== true) return numberText(number);
      return serialText(tables.date1904 ? number + DAYS_1904 : number);
    }
  }
}

function booleanText(value: string): string | CellError {
  const v = value.trim();
  if (v === '1' || v === 'true') return 'TRUE';
  if (v === '0' || v === 'false') return 'FALSE';
  return new CellError(`a true/false value that cannot be read ("${value}")`);
}

/** A cell of type `d`: an ISO 8601 date, time or both, read as written (no time zone applied). */
function isoDateText(value: string): string | CellError {
  const v = value.trim();
  const local = /^\d{4}-\d\d-\d\d(T[\d:.]+)?$/.test(v)
    ? v.includes('T')
      ? v
      : `${v}T00:00:00`
    : v;
  const ms = Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(local) ? local : `${local}Z`);
  if (Number.isNaN(ms)) return new CellError(`a date that cannot be read ("${value}")`);
  return dateText(new Date(ms));
}

/** A number as Excel shows it in General format (without its cut to the column's width). */
export function numberText(value: number): string | CellError {
  if (!Number.isFinite(value)) return new CellError('#NUM!');
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value + 0); // -0 → 0
  return String(Number(value.toPrecision(15)));
}

/** A date (Excel's serial read as UTC) as `YYYY-MM-DD[ HH:MM:SS]`. */
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

/** An Excel date serial (1900 system) as text; outside Excel's years (1900–9999) a problem. */
export function serialText(serial: number): string | CellError {
  if (!Number.isFinite(serial) || serial < 0 || serial >= LAST_SERIAL)
    return new CellError(
      `a date outside the years Excel shows, 1900 to 9999 (${numberText(serial) as string})`,
    );
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
