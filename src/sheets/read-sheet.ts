/**
 * intake → **sheet** → rows: opens a sheet of any supported format and yields every row either as
 * an order ready to send (with its checked attachments) or with all of its problems.
 */
import { dirname, extname } from 'node:path';

import { type Attachment, AttachmentChecker } from '../orders/attachments.js';
import type { Catalogue } from '../orders/catalogue.js';
import { type OrderPayload, type RowProblem, validateRow } from '../orders/row.js';
import {
  type Cells,
  type ColumnMapping,
  csvCells,
  type HeaderMap,
  mapHeader,
  MappingError,
  objectCells,
} from './columns.js';
import { openCsv } from './csv.js';
import { delimiterName } from './delimiter.js';
import { SheetError } from './errors.js';
import { readJsonArray, readNdjson } from './json.js';
import { scanSheet } from './scan.js';
import type { SheetFormat, SheetInfo, SourceRecord } from './types.js';

export interface ReadSheetOptions {
  catalogue: Catalogue;
  mapping?: ColumnMapping;
  /** Largest attachment accepted, in bytes. */
  maxAttachmentBytes: number;
}

/** One problem of one row, where the user will look for it. */
export interface Problem extends RowProblem {
  row: number;
  line: number | null;
}

interface RowBase {
  row: number;
  line: number | null;
  reference?: string;
  source: SourceRecord;
}

export type RowResult =
  | (RowBase & { ok: true; order: OrderPayload; attachments: Attachment[] })
  | (RowBase & { ok: false; problems: Problem[] });

export interface OpenedSheet {
  info: SheetInfo;
  /** Sheet-level warnings; complete once `rows` has been read to the end. */
  warnings: string[];
  rows: AsyncIterable<RowResult>;
}

const FORMATS: Record<string, SheetFormat> = {
  '.csv': 'csv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

export function sheetFormat(path: string): SheetFormat | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

export async function readSheet(path: string, options: ReadSheetOptions): Promise<OpenedSheet> {
  const format = sheetFormat(path);
  if (format === undefined) {
    const hint = /\.xlsx?$/i.test(path)
      ? ' Save it from Excel as "CSV UTF-8" or "CSV (semicolon delimited)".'
      : '';
    throw new SheetError(
      `"${extname(path)}" is not a sheet format: use .csv, .json, .ndjson or .jsonl.${hint}`,
    );
  }
  const scan = await scanSheet(path);
  const info: SheetInfo = {
    path,
    format,
    sha256: scan.sha256,
    bytes: scan.bytes,
    encoding: scan.encoding,
  };
  const warnings: string[] = [];
  const attachments = new AttachmentChecker(dirname(path), options.maxAttachmentBytes);
  const references = new Map<string, number>();
  const finish = (record: SourceRecord, cells: Cells, early: string[]) =>
    rowResult(record, cells, early, options.catalogue, attachments, references);

  if (format === 'csv') {
    const csv = await openCsv(path, scan);
    info.delimiter = csv.delimiter;
    info.header = csv.header;
    let map: HeaderMap;
    try {
      map = mapHeader(csv.header, options.mapping);
    } catch (error) {
      if (error instanceof MappingError) throw new SheetError(error.message, 1, { cause: error });
      throw error;
    }
    if (map.unknown.length > 0) warnings.push(unknownColumns(map.unknown));
    async function* rows(): AsyncGenerator<RowResult> {
      for await (const record of csv.records) {
        const { cells, extra } = csvCells(record.data as string[], csv.header, map);
        const early =
          extra > 0
            ? [
                `this row has ${extra} more cell${extra === 1 ? '' : 's'} than the header has columns: name the column${extra === 1 ? '' : 's'} in the header or remove the cell${extra === 1 ? '' : 's'}.`,
              ]
            : [];
        yield finish(record, cells, early);
      }
    }
    return { info, warnings, rows: rows() };
  }

  const records = format === 'json' ? readJsonArray(path, scan) : readNdjson(path, scan);
  const unknown = new Set<string>();
  async function* rows(): AsyncGenerator<RowResult> {
    for await (const record of records) {
      const { cells, clashes } = objectCells(
        record.data as Record<string, unknown>,
        options.mapping,
        unknown,
      );
      yield finish(record, cells, record.problem ? [record.problem, ...clashes] : clashes);
    }
    if (unknown.size > 0) warnings.push(unknownColumns([...unknown]));
  }
  return { info, warnings, rows: rows() };
}

function rowResult(
  record: SourceRecord,
  cells: Cells,
  early: readonly string[],
  catalogue: Catalogue,
  attachments: AttachmentChecker,
  references: Map<string, number>,
): RowResult {
  const base = { row: record.row, line: record.line, source: record };
  const at = (problem: RowProblem): Problem => ({ ...problem, row: record.row, line: record.line });
  const problems: Problem[] = early.map((message) => at({ column: '', message }));
  if (record.problem) return { ...base, ok: false, problems };

  const validation = validateRow(cells, catalogue);
  if (!validation.ok) problems.push(...validation.problems.map(at));
  const { files, reference = referenceOf(cells) } = validation.ok ? validation.value : validation;

  if (reference !== undefined) {
    const first = references.get(reference);
    if (first === undefined) references.set(reference, record.row);
    else {
      problems.push(
        at({
          column: cells.get('reference')?.column ?? 'reference',
          message: `reference "${reference}" is already used by row ${first}: each row needs its own reference.`,
        }),
      );
    }
  }
  const checked: Attachment[] = [];
  for (const path of files) {
    const result = attachments.check(path);
    if (result.ok) checked.push(result.attachment);
    else
      problems.push(at({ column: cells.get('files')?.column ?? 'files', message: result.message }));
  }
  const withReference = reference === undefined ? base : { ...base, reference };
  if (problems.length > 0 || !validation.ok) return { ...withReference, ok: false, problems };
  return { ...withReference, ok: true, order: validation.value.order, attachments: checked };
}

/** A reference is echoed in reports even when the row is invalid. */
function referenceOf(cells: Cells): string | undefined {
  const value = cells.get('reference')?.value;
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function unknownColumns(columns: readonly string[]): string {
  const list = columns.map((c) => `"${c}"`).join(', ');
  return `Unknown column${columns.length === 1 ? '' : 's'} ignored: ${list}. They are not order fields; if one holds an order field under another name, map it with --mapping.`;
}

export function describeSheet(info: SheetInfo): string {
  if (info.format !== 'csv') return `${info.format.toUpperCase()}, ${info.encoding}`;
  return `CSV, ${info.delimiter ? delimiterName(info.delimiter) : '","'}-separated, ${info.encoding}`;
}
