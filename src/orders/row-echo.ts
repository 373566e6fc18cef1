/**
 * What report.csv echoes of each row besides its outcome, so that a person reads it without
 * joining it to the sheet: the property's address and the contact's name as the row gives them,
 * and, for a sheet dropped back from failed/, the row's number in the sheet first imported
 * (`source_row`). Taken from each record in the one pass over a sheet when it is queued
 * (store/taken-sheet.ts); `ledger rebuild` checks a sheet's rows by it too.
 */
import {
  type Cells,
  normaliseHeader,
  type SheetField,
  SOURCE_ROW,
  SOURCE_SHEET,
  sourceRowNumber,
  sourceSheetId,
} from './columns.js';

export interface RowEcho {
  /** Street and number, postal code and city, as far as the row gives them. */
  address: string;
  contactName: string;
  /** The row's number in the sheet first imported; empty when this sheet is that one. */
  sourceRow: string;
  /** The id that sheet's failed/ wrote beside it (`source_sheet`): not checked against any. */
  sourceSheet: string;
  /**
   * Its attachments as its files cell names them, `|`-separated: the API knows them by ids,
   * a person by these names (the dashboard shows them).
   */
  files: string;
}

export const NO_ECHO: RowEcho = {
  address: '',
  contactName: '',
  sourceRow: '',
  sourceSheet: '',
  files: '',
};

/** What report.csv echoes of a row's cells. */
export function echoOf(cells: Cells): { address: string; contactName: string } {
  return { address: addressOf(cells), contactName: text(cells, 'contact_name') };
}

/** `Kerkstraat 12, 9000 Gent`: the parts the row gives, in the order a letter is addressed. */
export function addressOf(cells: Cells): string {
  return addressLine({
    address1: text(cells, 'address1'),
    address2: text(cells, 'address2'),
    postal_code: text(cells, 'postal_code'),
    city: text(cells, 'city'),
  });
}

/**
 * An address's parts in one line, `Kerkstraat 12, 9000 Gent`, the parts missing left out: the one
 * way report.csv and status.csv write an address (a row's, or an order's as the API answers it).
 */
export function addressLine(parts: {
  address1: string;
  address2: string;
  postal_code: string;
  city: string;
}): string {
  const street = [parts.address1, parts.address2].filter(Boolean).join(' ');
  const place = [parts.postal_code, parts.city].filter(Boolean).join(' ');
  return [street, place].filter(Boolean).join(', ');
}

/**
 * A record's `source_row` cell, found by the header's name for it (`at`: its column in a CSV or
 * worksheet, -1 when it has none) or by an object's key.
 */
export function sourceRowOf(data: string[] | Record<string, unknown>, at: number): string {
  if (Array.isArray(data)) return at < 0 ? '' : sourceRowNumber(data[at]);
  const key = Object.keys(data).find((name) => normaliseHeader(name) === SOURCE_ROW);
  return key === undefined ? '' : sourceRowNumber(data[key]);
}

/** The column of a header that holds `source_row`, or -1. */
export function sourceRowColumn(header: readonly string[]): number {
  return header.findIndex((name) => normaliseHeader(name) === SOURCE_ROW);
}

/** A record's `source_sheet` cell as a sheet id, as `sourceRowOf` finds `source_row`. */
export function sourceSheetOf(data: string[] | Record<string, unknown>, at: number): string {
  if (Array.isArray(data)) return at < 0 ? '' : sourceSheetId(data[at]);
  const key = Object.keys(data).find((name) => normaliseHeader(name) === SOURCE_SHEET);
  return key === undefined ? '' : sourceSheetId(data[key]);
}

/** The column of a header that holds `source_sheet`, or -1. */
export function sourceSheetColumn(header: readonly string[]): number {
  return header.findIndex((name) => normaliseHeader(name) === SOURCE_SHEET);
}

function text(cells: Cells, field: SheetField): string {
  return shownValue(cells.value(field));
}

/** A cell as text: strings trimmed, numbers as written, anything else (a list, an object) not. */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}
