/**
 * A sheet read as it was imported: its private copy (sheet-copy.ts), its attachments beside the
 * user's original, its mapping — and only when those are the bytes that were queued.
 * Validated for the sheet job that sends its rows; as written for whatever only needs its records.
 * A copy scanned when it was taken (its record's `scan`, taken-sheet.ts) is not hashed again: it
 * is renamed into place whole, read-only, once its bytes were hashed, so it holds those bytes or
 * is not there. Any other (one queued before copies were made, read at the user's path) is.
 */
import type { Words } from '../language/words.js';
import type { Catalogue } from '../orders/catalogue.js';
import { type OpenedSheet, readSheet, validateSource } from '../sheets/read-sheet.js';
import { openSource, readRecords, type SheetRecords, type SheetSource } from '../sheets/records.js';
import type { KnownScan } from '../sheets/scan.js';
import { sheetSource } from './sheet-copy.js';
import { type SheetRecord, sheetMapping } from './sheet-store.js';

/** What reading a sheet as imported needs (a context has it). */
export interface ImportedSheetParts {
  catalogue: Catalogue;
  /** The office's words: its rows' problems are told in them. */
  words?: Words;
  settings: { maxAttachmentBytes: number; sheetsDir: string };
}

/** The sheet's rows validated, or undefined when its bytes are not the ones queued (sha256). */
export async function readImported(
  sheet: SheetRecord,
  parts: ImportedSheetParts,
  options: { firstBatch?: number } = {},
): Promise<OpenedSheet | undefined> {
  const mapping = sheetMapping(sheet);
  const source = sheetSource(sheet, parts.settings.sheetsDir);
  const opened = await readSheet(source.path, {
    ...known(sheet),
    catalogue: parts.catalogue,
    ...(parts.words && { words: parts.words }),
    maxAttachmentBytes: parts.settings.maxAttachmentBytes,
    folder: source.folder,
    ...(mapping && { mapping }),
    ...options,
  });
  return opened.info.sha256 === sheet.sha256 ? opened : undefined;
}

/** The sheet opened, its records not yet read, or undefined when its bytes are not the ones queued. */
export async function openImported(
  sheet: SheetRecord,
  settings: { sheetsDir: string },
): Promise<SheetSource | undefined> {
  const path = sheetSource(sheet, settings.sheetsDir).path;
  const source = await openSource(path, sheetMapping(sheet), known(sheet).known);
  return source.info.sha256 === sheet.sha256 ? source : undefined;
}

/** A sheet opened and read before (`openImported`), validated as imported: its attachments beside the original. */
export function validateImported(
  sheet: SheetRecord,
  source: SheetSource,
  parts: ImportedSheetParts,
  options: { firstBatch?: number } = {},
): OpenedSheet {
  const mapping = sheetMapping(sheet);
  return validateSource(source, {
    catalogue: parts.catalogue,
    ...(parts.words && { words: parts.words }),
    maxAttachmentBytes: parts.settings.maxAttachmentBytes,
    folder: sheetSource(sheet, parts.settings.sheetsDir).folder,
    ...(mapping && { mapping }),
    ...options,
  });
}

/**
 * The sheet's records as written, not validated, or undefined when its bytes are not the ones
 * queued: enough to prove it readable to the end, or to bundle its rows.
 */
export async function readImportedRecords(
  sheet: SheetRecord,
  settings: { sheetsDir: string },
): Promise<SheetRecords | undefined> {
  const source = sheetSource(sheet, settings.sheetsDir);
  const records = await readRecords(source.path, sheetMapping(sheet), known(sheet).known);
  return records.info.sha256 === sheet.sha256 ? records : undefined;
}

/** The scan the sheet's copy was taken with, when the record has one. */
function known(sheet: SheetRecord): { known?: KnownScan } {
  const { scan } = sheet;
  if (scan === undefined || sheet.origin === undefined) return {};
  const { bytes, encoding, bom, layout } = scan;
  // Recorded once the pass over the copy read it whole: its bytes passed every check then.
  const checked = true;
  return {
    known: { sha256: sheet.sha256, bytes, encoding, bom, checked, ...(layout && { layout }) },
  };
}
