/**
 * A sheet's records as written, before validation: its format told from its name, its bytes
 * scanned (hash, encoding), a CSV's header mapped to fields. This is what proves a sheet
 * readable to the end (a quote never closed, broken JSON) and what a report bundles rows from;
 * read-sheet.ts validates the same records into orders.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';

import { type Cells, CsvCells, type HeaderMap, mapHeader, ObjectCells } from '../orders/columns.js';
import type { Mapping } from '../orders/mapping.js';
import { Invalid, isAbsent, normaliseFiles } from '../orders/normalise.js';
import { type CsvSheet, openCsv } from './csv.js';
import { atHeader, said, SheetError } from './errors.js';
import { readJsonArray, readNdjson } from './json.js';
import { noFieldHeader, refuseMappingFile } from './mapping-notes.js';
import { type KnownScan, type SheetScan, scanSheet } from './scan.js';

export type { KnownScan } from './scan.js';
import type { SheetFormat, SheetInfo, SourceRecord } from './types.js';
import { openWorkbook } from './workbook.js';

/**
 * A sheet opened, its records not yet read: CSV (or a workbook's worksheet, read as CSV is) with
 * its header's map, or JSON objects.
 */
export type SheetSource =
  | { info: SheetInfo; csv: CsvSheet; map: HeaderMap }
  | { info: SheetInfo; objects: AsyncIterable<SourceRecord[]> };

/** A sheet's records, each as written, and what a report needs to know of them. */
export interface SheetRecords {
  info: SheetInfo;
  /** Every record, in sheet order, a batch at a time. */
  batches: AsyncIterable<SourceRecord[]>;
  /** The attachment paths a record's files cell gives, usable or not (as validation reads them). */
  filesOf(record: SourceRecord): string[];
  /** A record's cells by field, as validation reads them (for what a report echoes of a row). */
  cellsOf(record: SourceRecord): Cells;
}

const FORMATS: Record<string, SheetFormat> = {
  '.csv': 'csv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  // A macro-enabled workbook's values are read like any other's; its macros are never run.
  '.xlsm': 'xlsx',
};

/** Spreadsheet formats refused (what they are is said in sheets.format.refused). */
const REFUSED: Record<string, string> = {
  '.xls': 'xls',
  '.xlsb': 'xlsb',
  '.ods': 'ods',
  '.numbers': 'numbers',
};

export function sheetFormat(path: string): SheetFormat | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

/**
 * Opens a sheet: refused at once when its format, bytes or header cannot be read. `mapping`: the
 * user's (mapping-files.ts), its columns applied here, its values by the rows' validation.
 * `known`: the scan of these very bytes, taken when they were copied (a sheet's private copy,
 * store/sheet-copy.ts): then they are not read to be hashed and scanned again.
 */
export async function openSource(
  path: string,
  mapping?: Mapping,
  known?: SheetScan | KnownScan,
): Promise<SheetSource> {
  refuseMappingFile(path);
  const format = sheetFormat(path);
  if (format === undefined) {
    const kind = REFUSED[extname(path).toLowerCase()];
    if (kind !== undefined) throw new SheetError(said('sheets.format.refused', { kind }));
    throw new SheetError(said('sheets.format.unknown', { extension: extname(path) }));
  }
  if (format === 'xlsx') {
    const book = await openWorkbook(
      path,
      mapping?.worksheet,
      await usableScan(path, format, known),
    );
    const info: SheetInfo = {
      path,
      format,
      sha256: book.sha256,
      bytes: book.bytes,
      encoding: 'utf-8',
      worksheet: book.worksheet,
    };
    try {
      return tabular(info, book.sheet, mapping);
    } catch (error) {
      await book.close();
      throw error;
    }
  }
  const scan = (await usableScan(path, format, known)) ?? (await scanSheet(path));
  const info: SheetInfo = {
    path,
    format,
    sha256: scan.sha256,
    bytes: scan.bytes,
    encoding: scan.encoding,
  };
  if (format !== 'csv') {
    const objects = format === 'json' ? readJsonArray(path, scan) : readNdjson(path, scan);
    return { info, objects };
  }
  return tabular(info, await openCsv(path, scan), mapping);
}

/**
 * A known scan that spares a read: one with its head, or one whose CSV layout is known; and only
 * for a file of its size (a file gone is an error of the file system, as an unknown one's read).
 */
async function usableScan(
  path: string,
  format: SheetFormat,
  known: SheetScan | KnownScan | undefined,
): Promise<(SheetScan & Pick<KnownScan, 'checked'>) | undefined> {
  if (known === undefined) return undefined;
  if ((await stat(path)).size !== known.bytes) return undefined;
  if ('head' in known) return known;
  if (format === 'csv' && known.layout === undefined) return undefined;
  return { ...known, head: '' };
}

/** A sheet of rows under a header (CSV, a worksheet), its header mapped to fields. */
function tabular(info: SheetInfo, csv: CsvSheet, mapping: Mapping | undefined): SheetSource {
  info.delimiter = csv.delimiter;
  info.header = csv.header;
  const map = headerMap(csv, mapping);
  info.columns = Object.fromEntries(
    [...map.index].map(([field, at]) => [field, csv.header[at] ?? field]),
  );
  return { info, csv, map };
}

/** A sheet's records, not validated: for proving it readable, and for bundling rows as written. */
export async function readRecords(
  path: string,
  mapping?: Mapping,
  known?: SheetScan | KnownScan,
): Promise<SheetRecords> {
  const source = await openSource(path, mapping, known);
  if ('csv' in source) {
    const { map } = source;
    const cellsOf = (record: SourceRecord) => new CsvCells(map, record.data as string[]);
    return {
      info: source.info,
      batches: source.csv.batches,
      filesOf: (record) => filesCell(record, cellsOf(record)),
      cellsOf,
    };
  }
  const ignored = new Set<string>();
  const cellsOf = (record: SourceRecord) =>
    new ObjectCells(record.data as Record<string, unknown>, mapping?.columns, ignored);
  return {
    info: source.info,
    batches: source.objects,
    filesOf: (record) => filesCell(record, cellsOf(record)),
    cellsOf,
  };
}

/** A source's records, a batch at a time. */
export function sourceRecords(source: SheetSource): AsyncIterable<SourceRecord[]> {
  return 'csv' in source ? source.csv.batches : source.objects;
}

/**
 * What a kept record is estimated to take in memory besides its cells' characters, and what each
 * cell adds (measured on Node 20: a CSV record of one short cell takes about 265 bytes, one of 21
 * cells about 1,100).
 */
const RECORD_BYTES = 256;
const CELL_BYTES = 48;

/**
 * Reads the source's records to the end (proving it readable) and counts them; keeps them, for
 * `replaySource`, while they are estimated to take at most `keepBytes` — else none, to be read
 * again: a sheet's size alone does not bound them (2 MB of one-letter rows are a million records).
 */
export async function readToEnd(
  source: SheetSource,
  keepBytes: number,
): Promise<{ rows: number; kept?: SourceRecord[][] }> {
  let kept: SourceRecord[][] | undefined = keepBytes > 0 ? [] : undefined;
  let estimate = 0;
  let rows = 0;
  for await (const batch of sourceRecords(source)) {
    rows = batch.at(-1)?.row ?? rows;
    if (kept === undefined) continue;
    for (const record of batch) {
      const { data } = record;
      const cells = Array.isArray(data) ? data.length : Object.keys(data).length;
      estimate += RECORD_BYTES + cells * CELL_BYTES;
    }
    if (estimate <= keepBytes) kept.push(batch);
    else kept = undefined;
  }
  return { rows, ...(kept && { kept }) };
}

/**
 * The same source with its records taken from `kept`, the batches read from it before: a sheet
 * read once to the end need not be parsed again to be validated. Each batch is let go of once
 * handed on.
 */
export function replaySource(source: SheetSource, kept: SourceRecord[][]): SheetSource {
  async function* batches(): AsyncGenerator<SourceRecord[]> {
    for (let i = 0; i < kept.length; i++) {
      const batch = kept[i] ?? [];
      kept[i] = [];
      yield batch;
    }
  }
  if ('csv' in source) return { ...source, csv: { ...source.csv, batches: batches() } };
  return { info: source.info, objects: batches() };
}

/** The files cell read as validation reads it: a cell that is no list of paths gives none. */
function filesCell(record: SourceRecord, cells: Cells): string[] {
  if (record.problem !== undefined) return [];
  const value = cells.value('files');
  if (isAbsent(value)) return [];
  const files = normaliseFiles(value);
  return files instanceof Invalid ? [] : files;
}

/** The header's map to fields; a header that names no field, or one twice, is refused. */
function headerMap(csv: CsvSheet, mapping: Mapping | undefined): HeaderMap {
  let map: HeaderMap;
  try {
    map = mapHeader(csv.header, mapping?.columns);
  } catch (error) {
    throw atHeader(error, csv.headerLine);
  }
  if (map.index.size === 0)
    throw new SheetError(noFieldHeader(csv.header, mapping), csv.headerLine);
  return map;
}
