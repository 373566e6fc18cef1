/**
 * The attachment paths a sibling names — a sheet still waiting beside the one being taken, which
 * may need the same files (siblings.ts) — read from its raw records and `files` cells only: no
 * validation. The sheet being taken gets its own list from its one pass (sheet-pass.ts), not from
 * here. The records are read, the header mapped and the cell split by the same reader the sheet
 * job and the report use (sheets/records.ts), so a sheet that cannot be read fails here too
 * (`SheetError`).
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
