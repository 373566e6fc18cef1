/**
 * What report.csv echoes of each row besides its outcome, so that a person reads it without
 * joining it to the sheet: the property's address and the contact's name as the row gives them,
 * and, for a sheet dropped back from failed/, the row's number in the sheet first imported
 * (`source_row`). Read from the sheet's private copy, the bytes imported, in one pass beside the
 * report's rows: nothing of it is kept in Redis while the rows are imported.
 */
import {
  type Cells,
  normaliseHeader,
  type SheetField,
  SOURCE_ROW,
  sourceRowNumber,
} from '../orders/columns.js';
import { SheetError } from '../sheets/errors.js';
import type { SheetRecords } from '../sheets/records.js';
import type { SourceRecord } from '../sheets/types.js';
import { readImportedRecords } from '../store/imported-sheet.js';
import type { SheetRecord } from '../store/sheet-store.js';

export interface RowEcho {
  /** Street and number, postal code and city, as far as the row gives them. */
  address: string;
  contactName: string;
  /** The row's number in the sheet first imported; empty when this sheet is that one. */
  sourceRow: string;
}

export const NO_ECHO: RowEcho = { address: '', contactName: '', sourceRow: '' };

/** The echo of a sheet's rows, asked for in increasing row order. */
export interface RowEchoes {
  of(row: number): Promise<RowEcho>;
  /** Lets go of the sheet when not every record was asked for. */
  close(): Promise<void>;
  /** Why some rows have no echo, once that is known (for the summary's warnings). */
  readonly problem: string | undefined;
}

/** The rows' echoes from the sheet's copy; every row's empty when the copy cannot be read. */
export async function openRowEchoes(
  sheet: SheetRecord,
  settings: { sheetsDir: string },
): Promise<RowEchoes> {
  if (sheet.error !== undefined || (sheet.total ?? 0) === 0) return noEchoes(undefined);
  let records: SheetRecords | undefined;
  try {
    records = await readImportedRecords(sheet, settings);
  } catch (error) {
    if (!(error instanceof SheetError) && !isGone(error)) throw error;
    return noEchoes(unreadable((error as Error).message));
  }
  if (records === undefined) return noEchoes(unreadable('it changed since it was imported'));
  return new EchoReader(records);
}

function noEchoes(problem: string | undefined): RowEchoes {
  return { of: () => Promise.resolve(NO_ECHO), close: () => Promise.resolve(), problem };
}

function unreadable(why: string): string {
  return `report.csv has no address, contact_name or source_row: the sheet as imported could not be read again (${why}).`;
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Walks the sheet's records once, beside the report's rows. */
class EchoReader implements RowEchoes {
  readonly #records: SheetRecords;
  readonly #batches: AsyncIterator<SourceRecord[]>;
  readonly #sourceRowAt: number;
  #batch: SourceRecord[] = [];
  #at = 0;
  #done = false;
  problem: string | undefined;

  constructor(records: SheetRecords) {
    this.#records = records;
    this.#batches = records.batches[Symbol.asyncIterator]();
    const header = records.info.header ?? [];
    this.#sourceRowAt = header.findIndex((name) => normaliseHeader(name) === SOURCE_ROW);
  }

  async of(row: number): Promise<RowEcho> {
    for (;;) {
      const record = await this.#current();
      if (record === undefined || record.row > row) return NO_ECHO;
      if (record.row === row) return this.#echo(record);
      this.#at += 1;
    }
  }

  async close(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#batches.return?.();
  }

  async #current(): Promise<SourceRecord | undefined> {
    while (this.#at >= this.#batch.length) {
      if (this.#done) return undefined;
      try {
        const next = await this.#batches.next();
        if (next.done === true) this.#done = true;
        else [this.#batch, this.#at] = [next.value, 0];
      } catch (error) {
        if (!(error instanceof SheetError)) throw error;
        this.#done = true;
        this.problem = unreadable(error.message);
      }
    }
    return this.#batch[this.#at];
  }

  #echo(record: SourceRecord): RowEcho {
    if (record.problem !== undefined) return NO_ECHO;
    return { ...echoOf(this.#records.cellsOf(record)), sourceRow: this.#sourceRowOf(record) };
  }

  #sourceRowOf(record: SourceRecord): string {
    const { data } = record;
    if (Array.isArray(data)) return sourceRowNumber(data[this.#sourceRowAt]);
    const key = Object.keys(data).find((name) => normaliseHeader(name) === SOURCE_ROW);
    return key === undefined ? '' : sourceRowNumber(data[key]);
  }
}

/** What report.csv echoes of a row's cells (`ledger rebuild` checks a sheet's rows by it). */
export function echoOf(cells: Cells): { address: string; contactName: string } {
  return { address: addressOf(cells), contactName: text(cells, 'contact_name') };
}

/** `Kerkstraat 12, 9000 Gent`: the parts the row gives, in the order a letter is addressed. */
export function addressOf(cells: Cells): string {
  const street = [text(cells, 'address1'), text(cells, 'address2')].filter(Boolean).join(' ');
  const place = [text(cells, 'postal_code'), text(cells, 'city')].filter(Boolean).join(' ');
  return [street, place].filter(Boolean).join(', ');
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
