/** How far a sheet has got, as the progress display and the dashboard show it. */
import type { RowStatus } from '../glossary.js';
import type { SheetRecord, SheetStore } from './sheet-store.js';

export interface SheetProgress {
  sheetId: string;
  name: string;
  startedAt: string;
  finishedAt?: string;
  state: SheetRecord['state'];
  /** Rows in the sheet, once counted. */
  total?: number;
  final: number;
  counts: Record<RowStatus, number>;
  reportDir?: string;
  error?: string;
  /** The API host the sheet's orders go to (host and port, never credentials). */
  apiHost?: string;
  /** Whether that is the embedded sandbox. */
  sandbox?: boolean;
  /** The connection it was queued for (a hash, never the token). */
  connectionId?: string;
  /** That connection's name (`gent`), for people. */
  connection?: string;
  /** The sheet that imported the same content before (its rows are all `duplicate`). */
  duplicateOf?: string;
  /** The installation whose data folder holds its files: only its workers work the sheet. */
  installation?: string;
  /** That data folder, as the process that queued the sheet knew it. */
  dataDir?: string;
}

/** A sheet as its own page shows it: its progress and what its import said of it. */
export interface SheetDetail extends SheetProgress {
  warnings: string[];
  /** The mapping file it was read with (absolute), which its warnings may name. */
  mappingFile?: string;
}

/** The file of a stored mapping record, when it says one (sheet-store.ts keeps it as JSON). */
function mappingFileOf(mapping: unknown): string | undefined {
  if (typeof mapping !== 'object' || mapping === null || !('source' in mapping)) return undefined;
  const { source } = mapping;
  if (typeof source !== 'object' || source === null || !('file' in source)) return undefined;
  return typeof source.file === 'string' ? source.file : undefined;
}

/** Host and port of an API base URL, for showing; undefined when it is not a URL. */
export function apiHost(apiBaseUrl: string): string | undefined {
  if (!URL.canParse(apiBaseUrl)) return undefined;
  return new URL(apiBaseUrl).host || undefined;
}

export async function sheetProgress(
  store: SheetStore,
  sheetId: string,
): Promise<SheetProgress | undefined> {
  const detail = await sheetDetail(store, sheetId);
  return detail && withoutWarnings(detail);
}

function withoutWarnings(detail: SheetDetail): SheetProgress {
  const { warnings: _warnings, mappingFile: _mappingFile, ...progress } = detail;
  return progress;
}

/** A sheet's progress with its warnings; undefined for a sheet not known here. */
export async function sheetDetail(
  store: SheetStore,
  sheetId: string,
): Promise<SheetDetail | undefined> {
  const sheet = await store.get(sheetId);
  if (!sheet) return undefined;
  const total = sheet.total ?? sheet.expected;
  const host = apiHost(sheet.apiBaseUrl);
  const mappingFile = mappingFileOf(sheet.mapping);
  return {
    sheetId,
    name: sheet.name,
    startedAt: sheet.startedAt,
    ...(sheet.finishedAt !== undefined && { finishedAt: sheet.finishedAt }),
    state: sheet.state,
    ...(total !== undefined && { total }),
    final: sheet.state === 'done' ? (total ?? 0) : await store.finalCount(sheetId),
    counts: await store.statusCounts(sheetId),
    ...(sheet.reportDir !== undefined && { reportDir: sheet.reportDir }),
    ...(sheet.error !== undefined && { error: sheet.error }),
    ...(host !== undefined && { apiHost: host }),
    sandbox: sheet.sandbox,
    ...(sheet.connectionId !== undefined && { connectionId: sheet.connectionId }),
    ...(sheet.connectionName !== undefined && { connection: sheet.connectionName }),
    ...(sheet.duplicateOf !== undefined && { duplicateOf: sheet.duplicateOf }),
    ...(sheet.installation !== undefined && { installation: sheet.installation }),
    ...(sheet.dataDir !== undefined && { dataDir: sheet.dataDir }),
    warnings: sheet.warnings,
    ...(mappingFile !== undefined && { mappingFile }),
  };
}

/** The latest sheets, newest first, as the dashboard shows them. */
export async function recentProgress(store: SheetStore, limit = 200): Promise<SheetProgress[]> {
  const ids = await store.recentSheets(limit);
  const sheets = await Promise.all(ids.map((id) => sheetDetail(store, id)));
  return sheets.flatMap((s) => (s === undefined ? [] : [withoutWarnings(s)]));
}
