/**
 * failed/ and needs-review.csv: the rows to fix or to check, as the user wrote them (the
 * original cells of each, from the sheet's private copy, with the header as written), with why,
 * and failed/ with the attachments those rows name, copied only through the safe opener. Read from
 * the records as written and their files cell: nothing is validated again.
 */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

import type { Context } from '../context.js';
import {
  normaliseHeader,
  SOURCE_ROW,
  SOURCE_SHEET,
  sourceRowNumber,
  sourceSheetId,
} from '../orders/columns.js';
import { AttachmentRefused } from '../orders/open-attachment.js';
import { SheetError } from '../sheets/errors.js';
import type { SheetInfo, SourceRecord } from '../sheets/types.js';
import { readImportedRecords } from '../store/imported-sheet.js';
import type { RowOutcome } from '../glossary.js';
import { type SheetRecord, sheetMapping } from '../store/sheet-store.js';
import { errorText, missingOutcome } from './outcome-text.js';
import { AttachmentCopies, CsvOut, JsonOut, XlsxOut } from './report-files.js';

/** The office's words (its reports are in them). */
type Words = Context['words'];

const REVIEW_COLUMNS = ['sent_at', 'answer', 'what_to_check'];

/**
 * What failed/ adds to a CSV row, each as a column of its own unless the sheet has it already (a
 * sheet dropped back from failed/ before): then that cell is set, and `source_row` kept with the
 * `source_sheet` it is of. `source_sheet` last: the columns before it keep their places.
 */
const ADDED_COLUMNS = ['order_id', SOURCE_ROW, 'error', SOURCE_SHEET] as const;

/** failed/ and needs-review.csv for `rows`, from the sheet's records; returns warnings. */
export async function writeBundles(
  ctx: Context,
  sheet: SheetRecord,
  rows: ReadonlySet<number>,
  dir: string,
): Promise<string[]> {
  try {
    const records = await readImportedRecords(sheet, ctx.settings);
    if (records === undefined) {
      // Only a sheet queued before copies were made, read at its own path, can come to this.
      return [ctx.words.t('rows.warning.bundlesChanged')];
    }
    const { words } = ctx;
    const writer = new BundleWriter(words, dir, records.info, sheet, ctx.settings);
    for await (const batch of records.batches) {
      const wanted = batch.filter((record) => rows.has(record.row));
      const outcomes = await ctx.store.outcomes(
        sheet.sheetId,
        wanted.map((record) => record.row),
      );
      for (const [i, record] of wanted.entries()) {
        const outcome = outcomes[i] ?? missingOutcome(words);
        await writer.add(record, outcome.missingFiles ?? records.filesOf(record), outcome);
      }
    }
    await writer.close();
    if (writer.failedRows > 0) {
      await writeMapping(words, sheet, join(dir, 'failed'), writer.problems);
    }
    return writer.problems;
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return [ctx.words.t('rows.warning.bundlesUnreadable', { reason: error.message })];
  }
}

/**
 * The mapping the sheet was read with, beside the failed rows: the folder dropped back into the
 * inbox is read as the sheet was (its rows keep the user's own column names).
 */
async function writeMapping(
  words: Words,
  sheet: SheetRecord,
  failedDir: string,
  problems: string[],
) {
  const mapping = sheetMapping(sheet);
  if (mapping === undefined) return;
  try {
    // `wx`: an attachment of that name copied there stays as it is.
    await writeFile(join(failedDir, 'mapping.json'), `${JSON.stringify(mapping.json, null, 2)}\n`, {
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    problems.push(words.t('rows.warning.mappingNotWritten'));
  }
}

/** The rows of one report's bundles, each written where it belongs as it comes. */
class BundleWriter {
  /** A CSV's failed rows, or a workbook's (written as a workbook). */
  readonly #failedCsv?: CsvOut | XlsxOut;
  readonly #failedJson?: JsonOut;
  readonly #review: CsvOut;
  readonly #copies: AttachmentCopies;
  readonly #info: SheetInfo;
  /** The sheet's id, written beside each row's number (`source_sheet`). */
  readonly #sheetId: string;
  /** What went wrong while writing, for the summary's warnings. */
  readonly problems: string[] = [];
  /** Rows written into failed/. */
  failedRows = 0;

  /** `sheet.path`: the user's sheet, beside which its attachments are (`info` is of the copy read). */
  constructor(
    readonly words: Words,
    dir: string,
    info: SheetInfo,
    sheet: Pick<SheetRecord, 'path' | 'sheetId'>,
    { maxAttachmentBytes }: { maxAttachmentBytes: number },
  ) {
    this.#info = info;
    this.#sheetId = sheet.sheetId;
    const original = sheet.path;
    const delimiter = info.delimiter ?? ',';
    const failedDir = join(dir, 'failed');
    this.#copies = new AttachmentCopies(dirname(original), failedDir, maxAttachmentBytes);
    const sheetName = basename(original, extname(original));
    const reviewPath = join(dir, 'needs-review.csv');
    if (info.header !== undefined) {
      const { header } = info;
      const added = ADDED_COLUMNS.filter((name) => columnAt(header, name) < 0);
      this.#failedCsv =
        info.format === 'xlsx'
          ? new XlsxOut(join(failedDir, `${sheetName}.xlsx`), [...header, ...added], info.worksheet)
          : new CsvOut(join(failedDir, `${sheetName}.csv`), [...header, ...added], delimiter);
      this.#review = new CsvOut(reviewPath, [...header, ...REVIEW_COLUMNS], delimiter);
    } else {
      const style = info.format === 'json' ? 'array' : 'lines';
      this.#failedJson = new JsonOut(join(failedDir, `${sheetName}${extname(original)}`), style);
      const columns = ['row', 'reference', ...REVIEW_COLUMNS, 'record'];
      this.#review = new CsvOut(reviewPath, columns, delimiter);
    }
  }

  /** A row to bundle; `files`: the attachments it names (or, for an order that exists, those missing). */
  async add(record: SourceRecord, files: readonly string[], outcome: RowOutcome): Promise<void> {
    if (outcome.status === 'invalid' || outcome.status === 'failed') {
      this.failedRows += 1;
      await this.#copyFiles(record.row, files);
      const error = errorText(outcome, this.#info.columns ?? {}, this.words);
      await this.#addFailed(record, outcome, error);
    }
    if (outcome.status === 'needs-review') await this.#addReview(record, outcome);
  }

  async #copyFiles(row: number, files: readonly string[]): Promise<void> {
    for (const path of files) {
      try {
        await this.#copies.copy(path);
      } catch (copyError) {
        // A file the row names but that does not exist is what its error already says.
        if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') continue;
        if (copyError instanceof AttachmentRefused) {
          const reason = copyError.message;
          this.problems.push(this.words.t('rows.warning.notCopied', { row: String(row), reason }));
          continue;
        }
        const reason = (copyError as Error).message;
        this.problems.push(
          this.words.t('rows.warning.copyFailed', { row: String(row), path, reason }),
        );
      }
    }
  }

  /**
   * The row as the user wrote it, with why and its first row number; an order that exists keeps
   * its id and only its missing files.
   */
  async #addFailed(record: SourceRecord, outcome: RowOutcome, error: string): Promise<void> {
    if (this.#failedCsv) {
      const header = this.#info.header ?? [];
      const cells = this.#cells(record);
      const filesAt =
        this.#info.columns?.files === undefined ? -1 : header.indexOf(this.#info.columns.files);
      if (outcome.missingFiles && filesAt >= 0) cells[filesAt] = outcome.missingFiles.join('|');
      // Dropped back before, the row keeps the number it had in the sheet first imported, and
      // that sheet's id (none, from a failed/ of a version that wrote none).
      const rowAt = columnAt(header, SOURCE_ROW);
      const kept = rowAt >= 0 && sourceRowNumber(cells[rowAt]) !== '';
      const sheetAt = columnAt(header, SOURCE_SHEET);
      const values: Record<(typeof ADDED_COLUMNS)[number], string | undefined> = {
        order_id: outcome.orderId === undefined ? undefined : String(outcome.orderId),
        source_row: kept ? undefined : String(record.row),
        error,
        source_sheet: kept ? sourceSheetId(sheetAt < 0 ? '' : cells[sheetAt]) : this.#sheetId,
      };
      const added: string[] = [];
      for (const name of ADDED_COLUMNS) {
        const at = columnAt(header, name);
        const value = values[name];
        if (at < 0) added.push(value ?? '');
        else if (value !== undefined) cells[at] = value;
      }
      await this.#failedCsv.write([...cells, ...added]);
      return;
    }
    await this.#failedJson?.write(failedObject(record, outcome, error, this.#sheetId));
  }

  async #addReview(record: SourceRecord, outcome: RowOutcome): Promise<void> {
    const known = [outcome.review?.sentAt ?? '', outcome.review?.answer ?? '', outcome.error ?? ''];
    if (this.#info.header !== undefined) {
      await this.#review.write([...this.#cells(record), ...known]);
    } else {
      const reference = outcome.reference ?? '';
      await this.#review.write([record.row, reference, ...known, JSON.stringify(record.data)]);
    }
  }

  /** A CSV record's cells, one per header column: cut past it, filled up to it. */
  #cells(record: SourceRecord): string[] {
    const header = this.#info.header ?? [];
    const cells = (record.data as string[]).slice(0, header.length);
    while (cells.length < header.length) cells.push('');
    return cells;
  }

  async close(): Promise<void> {
    await this.#failedCsv?.close();
    await this.#failedJson?.close();
    await this.#review.close();
  }
}

function columnAt(header: readonly string[], name: string): number {
  return header.findIndex((h) => normaliseHeader(h) === name);
}

/**
 * A JSON row for failed/: as written, with why, its order, and its first row number with the id
 * of the sheet it is of.
 */
function failedObject(
  record: SourceRecord,
  outcome: RowOutcome,
  error: string,
  sheetId: string,
): Record<string, unknown> {
  const object = { ...(record.data as Record<string, unknown>) };
  if (outcome.missingFiles) object.files = outcome.missingFiles;
  if (outcome.orderId !== undefined) object.order_id = outcome.orderId;
  const keyOf = (name: string) => Object.keys(object).find((key) => normaliseHeader(key) === name);
  const sourceKey = keyOf(SOURCE_ROW);
  const sheetKey = keyOf(SOURCE_SHEET) ?? SOURCE_SHEET;
  const first = sourceKey === undefined ? undefined : object[sourceKey];
  if (sourceRowNumber(first) === '') {
    object[sourceKey ?? SOURCE_ROW] = record.row;
    object[sheetKey] = sheetId;
  } else {
    object[sheetKey] = sourceSheetId(object[sheetKey]);
  }
  object.error = error;
  return object;
}
