/**
 * The attachment paths a sheet names, read from its raw records and `files` cells only: the
 * intake needs no validation (the sheet job is the place for that). The records are parsed, the
 * header mapped and the cell split exactly as the sheet job does, so a sheet that cannot be read
 * fails here too (`SheetError`), and the intake moves it to `failed/`.
 */
import { type Cells, CsvCells, ObjectCells } from '../orders/columns.js';
import { normaliseFiles } from '../orders/normalise.js';
import { openCsv } from '../sheets/csv.js';
import { SheetError } from '../sheets/errors.js';
import { readJsonArray, readNdjson } from '../sheets/json.js';
import { headerMap, sheetFormat } from '../sheets/read-sheet.js';
import { scanSheet } from '../sheets/scan.js';
import type { SourceRecord } from '../sheets/types.js';

/** Every attachment path the sheet's rows give (valid rows or not), each once. */
export async function filesNamedIn(path: string): Promise<string[]> {
  const files = new Set<string>();
  for await (const batch of recordCells(path)) {
    for (const cells of batch) {
      const named = normaliseFiles(cells.value('files'));
      // A cell that is no list of paths names nothing: its row's validation says so.
      if (Array.isArray(named)) for (const file of named) files.add(file);
    }
  }
  return [...files];
}

/** The cells of each record that is one (a record that is not names no file). */
async function* recordCells(path: string): AsyncGenerator<Cells[]> {
  const format = sheetFormat(path);
  if (format === undefined) throw new SheetError(`"${path}" is not a sheet format.`);
  const scan = await scanSheet(path);
  const usable = (record: SourceRecord) => record.problem === undefined;
  if (format === 'csv') {
    const csv = await openCsv(path, scan);
    const map = headerMap(csv, undefined);
    for await (const batch of csv.batches)
      yield batch.filter(usable).map((record) => new CsvCells(map, record.data as string[]));
    return;
  }
  const ignored = new Set<string>(); // keys that are no field: the sheet job warns of them
  const records = format === 'json' ? readJsonArray(path, scan) : readNdjson(path, scan);
  for await (const batch of records) {
    yield batch
      .filter(usable)
      .map((record) => new ObjectCells(record.data as Record<string, unknown>, undefined, ignored));
  }
}
