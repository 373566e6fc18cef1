/**
 * intake → **sheet** → rows: opens a sheet of any supported format and yields every row either as
 * an order ready to send (with its checked attachments) or with all of its problems.
 */
import { dirname } from 'node:path';

import { type Attachment, AttachmentChecker } from '../orders/attachments.js';
import type { Catalogue } from '../orders/catalogue.js';
import {
  type Cells,
  columnLetter,
  CsvCells,
  type HeaderMap,
  ObjectCells,
  type SheetField,
} from '../orders/columns.js';
import {
  type OrderPayload,
  type RowProblem,
  type RowReading,
  type RowValidation,
  readingWords,
  rowValidator,
} from '../orders/row.js';
import type { CsvSheet } from './csv.js';
import { headerNotes, mappingUsed, unknownColumns } from './mapping-notes.js';
import { type KnownScan, openSource, type SheetSource } from './records.js';
import { ReferenceSet } from './reference-set.js';
import type { SheetInfo, SourceRecord } from './types.js';

export { sheetFormat } from './records.js';

/** The words a sheet's problems and warnings are told in (src/language). */
type Words = NonNullable<RowReading['words']>;

export interface ReadSheetOptions {
  catalogue: Catalogue;
  /** The user's mapping (orders/mapping-files.ts): their column names and words for values. */
  mapping?: RowReading['mapping'];
  /** Largest attachment accepted, in bytes. */
  maxAttachmentBytes: number;
  /**
   * The folder attachment paths are relative to: the sheet's own by default; the original's
   * when `path` is a private copy of the sheet (see store/sheet-copy.ts).
   */
  folder?: string;
  /**
   * Rows of the first batch, at most: a sheet job hands its first rows on to the workers while
   * the rest are validated, instead of after a whole batch of up to a thousand. No limit by default.
   */
  firstBatch?: number;
  /** The scan of the sheet's bytes taken already (records.ts, `openSource`). */
  known?: KnownScan;
  /**
   * The words its rows' problems and its warnings are told in: the office's for an import, the
   * command's for `validate` (English when not given).
   */
  words?: Words;
}

/** One problem of one row, where the user will look for it. */
export interface Problem extends RowProblem {
  row: number;
  line: number | null;
}

interface RowBase {
  row: number;
  line: number | null;
  reference?: string | undefined;
  source: SourceRecord;
}

export type RowResult =
  | (RowBase & { ok: true; order: OrderPayload; attachments: Attachment[]; orderId?: number })
  | (RowBase & {
      ok: false;
      problems: Problem[];
      /** The attachment paths the row gives, usable or not (for the hot folder to move along). */
      files: string[];
    });

export interface OpenedSheet {
  info: SheetInfo;
  /** Sheet-level warnings; complete once `batches` has been read to the end. */
  warnings: string[];
  /** Every row, in sheet order, a batch at a time. */
  batches: AsyncIterable<RowResult[]>;
}

/**
 * The sheet's rows validated, a batch at a time. Its format, bytes and header are refused at once
 * (records.ts); a record that cannot be read further on is a SheetError from `batches`.
 */
export async function readSheet(path: string, options: ReadSheetOptions): Promise<OpenedSheet> {
  const source = await openSource(path, options.mapping, options.known);
  return validateSource(source, { ...options, folder: options.folder ?? dirname(path) });
}

/** The rows of a sheet opened already (records.ts), validated as they are read. */
export function validateSource(
  source: SheetSource,
  options: ReadSheetOptions & { folder: string },
): OpenedSheet {
  const { info } = source;
  const words = readingWords(options);
  const references = new ReferenceSet();
  const attachments = new AttachmentChecker(options.folder, options.maxAttachmentBytes);
  const notes = 'csv' in source ? headerNotes(source.map, options.mapping, words) : undefined;
  const validate = rowValidator(options.catalogue, {
    mapping: options.mapping,
    words,
    ...(notes && { missingHints: notes.missing }),
  });
  const finish: Finish = (record, cells, early) =>
    rowResult(words, record, cells, early, validate(cells), attachments, references);
  const warnings: string[] = notes?.warnings ?? [];
  if ('objects' in source) {
    return {
      info,
      warnings,
      batches: objectRows(
        words,
        source.objects,
        options.mapping,
        warnings,
        finish,
        options.firstBatch,
      ),
    };
  }
  return {
    info,
    warnings,
    batches: csvRows(words, source.csv, source.map, warnings, finish, options.firstBatch),
  };
}

/** The record-level problems of nearly every record: one list, not one per row. */
const NO_PROBLEMS: readonly string[] = [];

/** A record's cells and record-level problems → its result. */
type Finish = (record: SourceRecord, cells: Cells, early: readonly string[]) => RowResult;

function csvRows(
  words: Words,
  csv: CsvSheet,
  map: HeaderMap,
  warnings: string[],
  finish: Finish,
  firstBatch?: number,
): AsyncGenerator<RowResult[]> {
  let namelessRows = 0;
  const toResult = (record: SourceRecord): RowResult => {
    const cells = new CsvCells(map, record.data as string[]);
    if (cells.namelessData()) namelessRows += 1;
    const extra = cells.extra();
    // Most rows have no problem of their own: they share one empty list, never changed.
    let early: readonly string[] = record.problem === undefined ? NO_PROBLEMS : [record.problem];
    if (extra > 0) early = [...early, words.t('rows.extraCells', { count: extra })];
    return finish(record, cells, early);
  };
  async function* batches(): AsyncGenerator<RowResult[]> {
    yield* mapBatches(csv.batches, toResult, firstBatch);
    if (namelessRows > 0) {
      const letters = map.nameless.map(columnLetter).join(', ');
      warnings.push(words.t('rows.warning.nameless', { count: namelessRows, letters }));
    }
  }
  return batches();
}

async function* objectRows(
  words: Words,
  records: AsyncIterable<SourceRecord[]>,
  mapping: ReadSheetOptions['mapping'],
  warnings: string[],
  finish: Finish,
  firstBatch?: number,
): AsyncGenerator<RowResult[]> {
  const unknown = new Set<string>();
  const seen = { fields: new Set<SheetField>(), mapped: new Set<string>() };
  yield* mapBatches(
    records,
    (record) => {
      const data = record.data as Record<string, unknown>;
      const cells = new ObjectCells(data, mapping?.columns, unknown, seen);
      return finish(record, cells, clashesOf(words, record.problem, cells.clashes));
    },
    firstBatch,
  );
  if (mapping) warnings.push(mappingUsed(mapping, [...seen.mapped], words));
  if (unknown.size > 0) warnings.push(unknownColumns([...unknown], seen.fields, mapping, words));
}

/** A JSON record's own problem, and its keys that give a field another key gave. */
function clashesOf(
  words: Words,
  problem: string | undefined,
  clashes: ObjectCells['clashes'],
): readonly string[] {
  if (problem === undefined && clashes.length === 0) return NO_PROBLEMS;
  const told = clashes.map((clash) => words.t('rows.clash', clash));
  return problem === undefined ? told : [problem, ...told];
}

/** Each record mapped, a batch at a time; the first batch cut at `firstBatch` records. */
async function* mapBatches<T, U>(
  batches: AsyncIterable<T[]>,
  map: (item: T) => U,
  firstBatch = Infinity,
): AsyncGenerator<U[]> {
  let limit = firstBatch;
  for await (const batch of batches) {
    if (batch.length <= limit) yield batch.map(map);
    else {
      yield batch.slice(0, limit).map(map);
      yield batch.slice(limit).map(map);
    }
    limit = Infinity;
  }
}

function rowResult(
  words: Words,
  record: SourceRecord,
  cells: Cells,
  early: readonly string[],
  validation: RowValidation,
  attachments: AttachmentChecker,
  references: ReferenceSet,
): RowResult {
  // Built without object spreads: this runs once per row of sheets of a million rows.
  const { row, line } = record;
  const problems: Problem[] = [];
  for (const message of early) problems.push({ column: '', message, row, line });
  if (record.problem) return { row, line, source: record, ok: false, problems, files: [] };
  if (!validation.ok) {
    for (const p of validation.problems)
      problems.push({ column: p.column, message: p.message, row, line });
  }

  const files = validation.ok ? validation.value.files : validation.files;
  const reference =
    (validation.ok ? validation.value.reference : validation.reference) ?? referenceOf(cells);
  if (reference !== undefined) {
    const first = references.earlierRow(reference, row);
    if (first !== undefined) {
      const column = cells.column('reference') ?? 'reference';
      const message = words.t('rows.reference.taken', { column, reference, row: String(first) });
      problems.push({ column, message, row, line });
    }
  }
  const checked: Attachment[] = [];
  for (const path of files) {
    const result = attachments.check(path);
    if (result.ok) checked.push(result.attachment);
    else {
      const column = cells.column('files') ?? 'files';
      const problem = result.problem.text(words);
      const message = words.t('rows.attachment.problem', { column, problem });
      problems.push({ column, message, row, line });
    }
  }
  if (problems.length > 0 || !validation.ok) {
    return { row, line, reference, source: record, ok: false, problems, files };
  }
  const valid: RowResult = {
    row,
    line,
    reference,
    source: record,
    ok: true,
    order: validation.value.order,
    attachments: checked,
  };
  if (validation.value.orderId !== undefined) valid.orderId = validation.value.orderId;
  return valid;
}

/** A reference is echoed in reports even when the row is invalid. */
function referenceOf(cells: Cells): string | undefined {
  const value = cells.value('reference');
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
