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
import { basename, dirname, join, sep } from 'node:path';

import { MappingError } from '../../orders/columns.js';
import type { Catalogue } from '../../orders/catalogue.js';
import { type MappingSources, resolveMapping } from '../../orders/mapping-files.js';
import type { Mapping } from '../../orders/mapping.js';
import { lstatIfThere } from '../../orders/open-attachment.js';
import { archivedJournal } from '../../intake/journal.js';
import { journalMapping } from '../../intake/sheet-mapping.js';
import { echoOf } from '../../report/row-echo.js';
import { SheetError } from '../../sheets/errors.js';
import { readSheet } from '../../sheets/read-sheet.js';
import { readRecords } from '../../sheets/records.js';
import { hashFile } from '../../sheets/scan.js';
import type { ReportedOrder, ReportedSheet } from '../../status/report-folder.js';
import { ledgerKey } from '../../store/ledger.js';
import { sheetCopyPath } from '../../store/sheet-copy.js';

/** Where a reported sheet's bytes may still be, and how its rows are read. */
export interface SheetsOnDisk {
  archiveDir: string;
  sheetsDir: string;
  catalogue: Catalogue;
  maxAttachmentBytes: number;
  mappings: MappingSources;
}

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
  if (report.sha256 === undefined || report.sheet === undefined)
    return refused('its summary.json does not say which bytes were imported (no sha256 or sheet)');
  const path = await sameBytes(report.sheetId, report.sha256, report.sheet, disk);
  if (path === undefined) return refused('its sheet is no longer on disk');
  let mapping: Mapping | undefined;
  try {
    mapping = await mappingOf(path, report.sheetId, disk);
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    return refused(`its mapping cannot be used (${error.message})`);
  }
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

/** The first of the sheet's possible copies whose bytes are the ones imported (never a link). */
async function sameBytes(
  sheetId: string,
  sha256: string,
  reported: string,
  disk: SheetsOnDisk,
): Promise<string | undefined> {
  const candidates = [reported, sheetCopyPath(disk.sheetsDir, sheetId, basename(reported))];
  for (const candidate of candidates) {
    const stats = await lstatIfThere(candidate).catch((error: unknown) => {
      // A folder it may not enter, a name too long: not this copy.
      if (typeof (error as NodeJS.ErrnoException).code === 'string') return undefined;
      throw error;
    });
    if (stats?.isFile() !== true) continue;
    if ((await hashFile(candidate)) === sha256) return candidate;
  }
  return undefined;
}

/** The archived journal's mapping for a hot-folder sheet; else the one `import` would use now. */
async function mappingOf(
  path: string,
  sheetId: string,
  disk: SheetsOnDisk,
): Promise<Mapping | undefined> {
  const work = join(disk.archiveDir, sheetId);
  const journal = path.startsWith(`${work}${sep}`) ? await archivedJournal(work) : undefined;
  if (journal?.mapping !== undefined) return journalMapping(journal, work);
  return resolveMapping(disk.mappings, dirname(path));
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
