/**
 * Excel runs a CSV cell that begins with `=`, `+`, `-` or `@` as a formula (and tab or CR lead to
 * the same through its import): a sheet's cell could then run code or leak data on the machine of
 * whoever opens a report. Cells the importer writes to CSV get a leading `'`, which Excel shows as
 * text; the CSV reader drops exactly that `'` again, so a fixed failed/ sheet imports the user's
 * own values.
 *
 * The pair is an exact inverse on every string: a value that already begins with quotes before
 * such a character (`'=x`) gets one quote more, and the reader drops one quote from any run of
 * quotes before such a character. A quote before anything else (`'s-Hertogenbosch`) is left alone
 * both ways.
 */

const QUOTE = 0x27;

/** Whether the value is, after any leading quotes, a cell Excel would take as a formula. */
function formulaAfterQuotes(value: string): boolean {
  let i = 0;
  while (value.charCodeAt(i) === QUOTE) i += 1;
  const next = value.charCodeAt(i);
  return (
    next === 0x3d || // =
    next === 0x2b || // +
    next === 0x2d || // -
    next === 0x40 || // @
    next === 0x09 || // tab
    next === 0x0d // CR
  );
}

/** The cell as written to a CSV file: shown by Excel as text, never run. */
export function neutraliseCell(value: string): string {
  return formulaAfterQuotes(value) ? `'${value}` : value;
}

/** The user's own value of a cell read from a CSV file (the inverse of neutraliseCell). */
export function restoreCell(cell: string): string {
  return cell.charCodeAt(0) === QUOTE && formulaAfterQuotes(cell) ? cell.slice(1) : cell;
}
