/**
 * The ledger keys of a report's rows that have no `reference` and no record of creates (a report
 * of a version that kept none, or whose record is gone): their key is a fingerprint of what the
 * row sent (store/ledger.ts `ledgerKey`), so it is computed again from the sheet's bytes — its
 * hot-folder archive copy, its private copy, or the file it was imported from, whichever still
 * hashes to the summary's sha256 — read with the project's own reader and validation, and the
 * mapping it was read with as far as the disk tells it (the archived journal's, else the one
 * `import` would find now). A row is keyed only when the sheet's record at that row is the one
 * report.csv describes (its line, its address and contact name where the report echoes them):
 * otherwise the sheet is said not to be keyable, never guessed.
 */
import type { Mapping } from '../../orders/mapping.js';
import { echoOf } from '../../report/row-echo.js';
import { SheetError } from '../../sheets/errors.js';
import { readSheet } from '../../sheets/read-sheet.js';
import { readRecords } from '../../sheets/records.js';
import type { ReportedOrder, ReportedSheet } from '../../status/report-folder.js';
import { ledgerKey } from '../../store/ledger.js';
import { sheetOnDisk, type SheetsOnDisk } from './ledger-sheet-source.js';

/** The keys of the rows asked for, by row; and, when some have none, why. */
export interface SheetKeys {
  keys: Map<number, string>;
  why?: string;
}

export async function keysFromSheet(
  report: ReportedSheet,
  connectionId: string,
  orders: readonly ReportedOrder[],
  disk: SheetsOnDisk,
): Promise<SheetKeys> {
  const found = await sheetOnDisk(report, disk);
  if ('why' in found) return refused(found.why);
  const { path, mapping } = found;
  try {
    const wanted = new Map(orders.map((order) => [order.row, order]));
    const mismatch = await firstMismatch(path, mapping, wanted);
    if (mismatch !== undefined) return refused(`${path} ${mismatch}`);
    return await keysOf(path, mapping, connectionId, wanted, disk);
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return refused(`${path} cannot be read (${error.message})`);
  }
}

function refused(why: string): SheetKeys {
  return { keys: new Map(), why };
}

/** Why the sheet's records are not the rows report.csv describes; undefined when they are. */
async function firstMismatch(
  path: string,
  mapping: Mapping | undefined,
  wanted: Map<number, ReportedOrder>,
): Promise<string | undefined> {
  const records = await readRecords(path, mapping);
  const seen = new Set<number>();
  for await (const batch of records.batches) {
    for (const record of batch) {
      const order = wanted.get(record.row);
      if (order === undefined) continue;
      seen.add(record.row);
      const echo = echoOf(records.cellsOf(record));
      const line = record.line === null ? '' : String(record.line);
      if (
        (order.line !== '' && order.line !== line) ||
        (order.address !== '' && order.address !== echo.address) ||
        (order.contactName !== '' && order.contactName !== echo.contactName)
      )
        return `has at row ${record.row} another row than the report's`;
    }
  }
  const missing = [...wanted.keys()].find((row) => !seen.has(row));
  return missing === undefined ? undefined : `has no row ${missing}`;
}

/** The rows' keys as the import computed them: validated, then fingerprinted. */
async function keysOf(
  path: string,
  mapping: Mapping | undefined,
  connectionId: string,
  wanted: Map<number, ReportedOrder>,
  disk: SheetsOnDisk,
): Promise<SheetKeys> {
  const opened = await readSheet(path, {
    catalogue: disk.catalogue,
    maxAttachmentBytes: disk.maxAttachmentBytes,
    ...(mapping && { mapping }),
  });
  const keys = new Map<number, string>();
  const invalid: number[] = [];
  for await (const batch of opened.batches) {
    for (const result of batch) {
      if (!wanted.has(result.row)) continue;
      if (result.reference !== undefined)
        return refused(`${path} has a reference at row ${result.row}, the report none`);
      // An order was made of it, so it was valid then: an attachment gone since, most likely.
      if (!result.ok) invalid.push(result.row);
      else {
        const files = result.attachments.map((a) => a.path);
        keys.set(result.row, ledgerKey(connectionId, { order: result.order, files }));
      }
    }
  }
  if (invalid.length === 0) return { keys };
  const rows = invalid.slice(0, 5).join(', ') + (invalid.length > 5 ? ', …' : '');
  return { keys, why: `rows ${rows} of ${path} are not valid when read now (an attachment gone?)` };
}
