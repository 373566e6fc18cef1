/**
 * Where a reported sheet's bytes still are on disk, for `ledger rebuild` (ledger-sheet-keys.ts):
 * the file the summary names (its archive copy, for a hot-folder sheet, or the file imported),
 * else its private copy — the first whose bytes hash to the summary's sha256, never through a
 * link — and the mapping it was read with as far as the disk tells: the archived journal's,
 * else the one an import would find now.
 */
import { basename, dirname, join, sep } from 'node:path';

import { archivedJournal } from '../../intake/journal.js';
import { journalMapping } from '../../intake/sheet-mapping.js';
import type { Catalogue } from '../../orders/catalogue.js';
import { type MappingSources, resolveMapping } from '../../orders/mapping-files.js';
import type { Mapping } from '../../orders/mapping.js';
import { lstatIfThere } from '../../orders/open-attachment.js';
import { hashFile } from '../../sheets/scan.js';
import type { ReportedSheet } from '../../status/report-folder.js';
import { sheetCopyPath } from '../../store/sheet-copy.js';
import { isKnown } from '../../errors.js';

/** Where a reported sheet's bytes may still be, and how its rows are read. */
export interface SheetsOnDisk {
  archiveDir: string;
  sheetsDir: string;
  catalogue: Catalogue;
  maxAttachmentBytes: number;
  mappings: MappingSources;
}

/** The sheet's bytes as imported and its mapping, or why they cannot be had. */
export async function sheetOnDisk(
  report: ReportedSheet,
  disk: SheetsOnDisk,
): Promise<{ path: string; mapping: Mapping | undefined } | { why: string }> {
  if (report.sha256 === undefined || report.sheet === undefined)
    return { why: 'its summary.json does not say which bytes were imported (no sha256 or sheet)' };
  const path = await sameBytes(report.sheetId, report.sha256, report.sheet, disk);
  if (path === undefined) return { why: 'its sheet is no longer on disk' };
  try {
    return { path, mapping: await mappingOf(path, report.sheetId, disk) };
  } catch (error) {
    if (!isKnown(error, 'mapping.invalid')) throw error;
    return { why: `its mapping cannot be used (${error.message})` };
  }
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
