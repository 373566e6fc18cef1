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
  /** The sheet whose rows this one fixes (a failed/ sheet dropped back). */
  fixes?: SheetLink;
  /** Its rows fixed later by other sheets; none when none was. */
  fixedLater?: FixedLater;
  /** That data folder, as the process that queued the sheet knew it. */
  dataDir?: string;
}

/** Another sheet the fix loop links with this one, as a person tells it from one of its name. */
export interface SheetLink {
  sheetId: string;
  /** Its name and when it was taken, when the store still knows it. */
  name?: string;
  startedAt?: string;
  /** How many rows the link is about. */
  rows?: number;
}

/** Rows of a sheet that later sheets fixed (dropped back from its failed/), and where. */
export interface FixedLater {
  invalid: number;
  failed: number;
  by: SheetLink[];
}

/** A sheet as its own page shows it: its progress and what its import said of it. */
export interface SheetDetail extends SheetProgress {
  warnings: string[];
  /** Each of its rows fixed later → the sheet that fixed it (none when no row was). */
  fixedRows?: ReadonlyMap<number, string>;
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
  const detail = await sheetDetailOnly(store, sheetId);
  return detail && withoutWarnings(detail);
}

function withoutWarnings(detail: SheetDetail): SheetProgress {
  const { warnings: _warnings, fixedRows: _rows, mappingFile: _mappingFile, ...progress } = detail;
  return progress;
}

/**
 * A sheet's progress with its warnings, and which of its rows were fixed later; undefined for a
 * sheet not known here, or one being purged (retention: withdrawn from every list, its files
 * going; its page is no more shown than its line, even by a link kept from before).
 */
export async function sheetDetail(
  store: SheetStore,
  sheetId: string,
): Promise<SheetDetail | undefined> {
  if (await store.isPurging(sheetId)) return undefined;
  const detail = await sheetDetailOnly(store, sheetId);
  if (detail?.fixedLater === undefined) return detail;
  return { ...detail, fixedRows: await store.fixes.rowsOf(sheetId) };
}

/** The fix loop's links of a sheet, both ways, each other sheet named as the store knows it. */
async function fixLinks(
  store: SheetStore,
  sheetId: string,
): Promise<Pick<SheetProgress, 'fixes' | 'fixedLater'>> {
  const links = await store.fixes.of(sheetId);
  const named = async (link: SheetLink): Promise<SheetLink> => {
    const other = await store.get(link.sheetId);
    return other === undefined ? link : { ...link, name: other.name, startedAt: other.startedAt };
  };
  const { invalid, failed } = links.fixed;
  return {
    ...(links.fixes !== undefined && { fixes: await named({ sheetId: links.fixes }) }),
    ...(links.by.length > 0 && {
      fixedLater: { invalid, failed, by: await Promise.all(links.by.map(named)) },
    }),
  };
}

async function sheetDetailOnly(
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
    ...(await fixLinks(store, sheetId)),
    warnings: sheet.warnings,
    ...(mappingFile !== undefined && { mappingFile }),
  };
}

/**
 * The latest sheets, newest first, as the dashboard shows them; given `connections`, only the
 * sheets queued for one of them (an installation's own: docs/design.md "One installation, one
 * namespace"), however many of other installations sharing the Redis are newer.
 */
export async function recentProgress(
  store: SheetStore,
  limit = 200,
  connections?: ReadonlySet<string>,
): Promise<SheetProgress[]> {
  const ids =
    connections === undefined
      ? await store.recentSheets(limit)
      : await own(store, limit, connections);
  const sheets = await Promise.all(ids.map((id) => sheetDetailOnly(store, id)));
  return sheets.flatMap((s) => (s === undefined ? [] : [withoutWarnings(s)]));
}

/** The ids of the latest `limit` sheets of `connections`, read from the newest in batches. */
async function own(
  store: SheetStore,
  limit: number,
  connections: ReadonlySet<string>,
): Promise<string[]> {
  const found: string[] = [];
  const batch = Math.max(limit, 500);
  for (let skip = 0; found.length < limit; skip += batch) {
    const ids = await store.recentSheets(batch, skip);
    const owners = await store.connectionsOf(ids);
    ids.forEach((id, i) => {
      const owner = owners[i];
      // A sheet queued between two batches moves the others down: one may come twice.
      const fresh = !found.includes(id);
      if (owner !== undefined && connections.has(owner) && fresh && found.length < limit)
        found.push(id);
    });
    if (ids.length < batch) break;
  }
  return found;
}
