/**
 * The attachment paths a sheet names, read from its raw records and `files` cells only: the
 * intake needs no validation (the sheet job is the place for that). The records are read, the
 * header mapped and the cell split by the same reader the sheet job and the report use
 * (sheets/records.ts), so a sheet that cannot be read fails here too (`SheetError`), and the
 * intake moves it to `failed/`.
 */
import type { Mapping } from '../orders/mapping.js';
import { readRecords } from '../sheets/records.js';

/**
 * Every attachment path the sheet's rows give (valid rows or not), each once; `mapping`: the
 * sheet's (its header may name the files column in the user's words).
 */
export async function filesNamedIn(path: string, mapping?: Mapping): Promise<string[]> {
  const sheet = await readRecords(path, mapping);
  const files = new Set<string>();
  for await (const batch of sheet.batches) {
    for (const record of batch) {
      // A record that is none (a broken line) names nothing: its row's validation says so.
      if (record.problem !== undefined) continue;
      for (const file of sheet.filesOf(record)) files.add(file);
    }
  }
  return [...files];
}
