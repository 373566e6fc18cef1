/**
 * What report.csv echoes of each row besides its outcome (orders/row-echo.ts): the rows' address,
 * contact and `source_row`, written beside the sheet's copy by the pass over it when it was queued
 * (store/taken-sheet.ts), read here in one pass beside the report's rows: nothing of it is kept in
 * Redis, and the sheet is not read again. A sheet that pass could not read, or queued by an older
 * version, is read from its private copy instead.
 */
import { access } from 'node:fs/promises';

import { SheetError } from '../sheets/errors.js';
import type { SheetRecords } from '../sheets/records.js';
import type { SourceRecord } from '../sheets/types.js';
import { readImportedRecords } from '../store/imported-sheet.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { echoFilePath, readEchoes } from '../store/taken-sheet.js';
import {
  echoOf,
  NO_ECHO,
  type RowEcho,
  sourceRowColumn,
  sourceRowOf,
  sourceSheetColumn,
  sourceSheetOf,
} from '../orders/row-echo.js';

export { addressOf, echoOf, NO_ECHO, type RowEcho } from '../orders/row-echo.js';
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
  const kept = await keptEchoes(sheet, settings);
  if (kept !== undefined) return kept;
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

/** The echoes the pass over the sheet wrote when it was queued, if it wrote them. */
async function keptEchoes(
  sheet: SheetRecord,
  settings: { sheetsDir: string },
): Promise<RowEchoes | undefined> {
  if (sheet.scan?.echo !== true) return undefined;
  const path = echoFilePath(settings.sheetsDir, sheet.sheetId);
  try {
    await access(path);
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
  const echoes = readEchoes(path);
  return {
    of: (row) => echoes.of(row),
    close: () => {
      echoes.close();
      return Promise.resolve();
    },
    problem: undefined,
  };
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
  readonly #sourceSheetAt: number;
  #batch: SourceRecord[] = [];
  #at = 0;
  #done = false;
  problem: string | undefined;

  constructor(records: SheetRecords) {
    this.#records = records;
    this.#batches = records.batches[Symbol.asyncIterator]();
    this.#sourceRowAt = sourceRowColumn(records.info.header ?? []);
    this.#sourceSheetAt = sourceSheetColumn(records.info.header ?? []);
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
    const sourceRow = sourceRowOf(record.data, this.#sourceRowAt);
    const sourceSheet = sourceSheetOf(record.data, this.#sourceSheetAt);
    const files = this.#records.filesOf(record).join('|');
    return { ...echoOf(this.#records.cellsOf(record)), sourceRow, sourceSheet, files };
  }
}
