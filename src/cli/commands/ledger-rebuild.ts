/**
 * The duplicates ledger rebuilt from what is on disk (docs/design.md §3, "A Redis that forgot"):
 * each report's orders (report.csv: `created` rows and `failed` rows with an order id), each row's
 * key from its `reference` (or, without one, from the record of creates, store/creates-log.ts,
 * else from the sheet's bytes when they are still on disk, ledger-sheet-keys.ts), and, for sheets that have no report yet (an import cut short), that record itself: an answered
 * create is an order, a create sent with no answer kept is `unknown` — a re-import makes that row
 * `needs-review`, never a second order. An entry already in the ledger is kept: run twice, the
 * rebuild adds nothing the second time.
 *
 * Reports and records are files a person may have edited: read as data to check, never through a
 * link (status/report-folder.ts, creates-log.ts); what cannot be read is skipped and said.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { ConnectionInfo } from '../../connections/connection.js';
import { connectRedis } from '../../redis/connect.js';
import {
  readReportedOrders,
  recentReports,
  type ReportedOrder,
  type ReportedSheet,
} from '../../status/report-folder.js';
import {
  createsDirOf,
  loggedSheets,
  readCreates,
  type SheetCreates,
} from '../../store/creates-log.js';
import { KeyLayout, Keys } from '../../store/keys.js';
import { Ledger, referenceKey } from '../../store/ledger.js';
import { markRebuilt } from '../../store/redis-marker.js';
import { keysFromSheet } from './ledger-sheet-keys.js';
import type { SheetsOnDisk } from './ledger-sheet-source.js';
import { isKnown, type KnownError } from '../../errors.js';

/** What the rebuild reads, once for every connection. */
export interface RebuildSources {
  reports: ReportedSheet[];
  creates: Map<string, SheetCreates>;
  /** What could not be read, one line each (ledger-lines.ts says them). */
  skipped: Skipped[];
}

/** Something the rebuild could not read, and passed over. */
export type Skipped =
  | { kind: 'link'; path: string }
  | { kind: 'creates-link'; file: string }
  | { kind: 'creates-lines'; file: string; count: number }
  | { kind: 'report'; error: KnownError };

/** A report's rows that could not be keyed, and why (none known: undefined). */
export interface Unkeyed {
  count: number;
  sheetId: string;
  dir: string;
  why: string | undefined;
}

export interface RebuildCounts {
  /** Entries written now: orders, and creates whose outcome is unknown. */
  created: number;
  unknown: number;
  /** Entries the ledger had already. */
  kept: number;
  reports: number;
  /** Sheets with no report, taken from the record of creates. */
  unreported: number;
  /** Orders of a report whose row has no reference and no record of its key. */
  keyless: number;
  /** Of those, the ones keyed again from their sheet's bytes on disk. */
  rekeyed: number;
  /** Per sheet, why some of its rows could not be keyed. */
  unkeyed: Unkeyed[];
}

export async function rebuildSources(where: {
  reportsDir: string;
  dataDir: string;
  ledgerDays: number;
  now: number;
}): Promise<RebuildSources> {
  const skipped: Skipped[] = [];
  const createsDir = createsDirOf(join(where.dataDir, 'sheets'));
  skipped.push(...(await linksAmong(where.reportsDir)));
  const reports = await recentReports(where.reportsDir, where.ledgerDays, where.now, (error) =>
    skipped.push({ kind: 'report', error }),
  );
  const creates = new Map<string, SheetCreates>();
  for (const sheetId of await loggedSheets(createsDir)) {
    const read = await readCreates(createsDir, sheetId);
    if (read === undefined) {
      skipped.push({ kind: 'creates-link', file: `${createsDir}/${sheetId}.ndjson` });
      continue;
    }
    if (read.skipped > 0)
      skipped.push({
        kind: 'creates-lines',
        file: `${createsDir}/${sheetId}.ndjson`,
        count: read.skipped,
      });
    creates.set(sheetId, read.creates);
  }
  return { reports, creates, skipped };
}

/** Report folders, and report.csv files, that are links: never followed, and said. */
async function linksAmong(reportsDir: string): Promise<Skipped[]> {
  const said: Skipped[] = [];
  let entries;
  try {
    entries = await readdir(reportsDir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return said;
    throw error;
  }
  for (const entry of entries) {
    const path = join(reportsDir, entry.name);
    if (entry.isSymbolicLink()) said.push({ kind: 'link', path });
    if (!entry.isDirectory()) continue;
    const csv = await lstat(join(path, 'report.csv')).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    if (csv?.isSymbolicLink() === true) said.push({ kind: 'link', path: `${path}/report.csv` });
  }
  return said;
}

/**
 * The entries to write, by key: each remembered from when its order was made (`madeAt`, ms; its
 * create sent, or its sheet reported), and none the ledger would have forgotten by now.
 */
interface Entries {
  readonly byKey: Map<string, { state: 'created' | 'unknown'; entry: string; madeAt?: number }>;
  readonly remembers: (at: number) => boolean;
}

/** One connection's ledger, rebuilt from `sources`. */
export async function rebuildLedger(
  ledger: Ledger,
  connection: Pick<ConnectionInfo, 'id' | 'name'>,
  sources: RebuildSources,
  onlyOne: boolean,
  disk: SheetsOnDisk,
): Promise<RebuildCounts> {
  const entries: Entries = { byKey: new Map(), remembers: (at) => ledger.remembers(at) };
  const counts: RebuildCounts = {
    ...{ created: 0, unknown: 0, kept: 0, reports: 0, unreported: 0, keyless: 0, rekeyed: 0 },
    unkeyed: [],
  };
  const reported = new Set<string>();
  for (const report of sources.reports) {
    if (!belongs(report, connection, onlyOne)) continue;
    reported.add(report.sheetId);
    try {
      await fromReport(report, connection.id, { sources, disk, entries, counts });
      counts.reports += 1;
    } catch (error) {
      if (!isKnown(error, 'report-folder.unusable')) throw error;
      sources.skipped.push({ kind: 'report', error });
    }
  }
  for (const [sheetId, sheet] of sources.creates) {
    if (sheet.connectionId !== connection.id || reported.has(sheetId)) continue;
    counts.unreported += 1;
    for (const row of sheet.rows) {
      if (row.released === true) continue;
      const state = row.orderId === undefined ? 'unknown' : 'created';
      add(entries, row.key, state, { sheetId, row: row.row, orderId: row.orderId }, row.sentAt);
    }
  }
  await write(ledger, entries, counts);
  return counts;
}

/**
 * A report's orders into `entries`: each under its reference, else its key in the record of
 * creates, else its fingerprint computed again from the sheet's bytes (ledger-sheet-keys.ts).
 */
async function fromReport(
  report: ReportedSheet,
  connectionId: string,
  into: { sources: RebuildSources; disk: SheetsOnDisk; entries: Entries; counts: RebuildCounts },
): Promise<void> {
  const { orders } = await readReportedOrders(report.dir);
  const logged = new Map(
    (into.sources.creates.get(report.sheetId)?.rows ?? []).map((row) => [row.row, row.key]),
  );
  const keyless: ReportedOrder[] = [];
  for (const order of orders) {
    const key =
      order.reference !== '' ? referenceKey(connectionId, order.reference) : logged.get(order.row);
    if (key === undefined) keyless.push(order);
    else add(into.entries, key, 'created', refOf(report, order), report.finishedAt);
  }
  if (keyless.length === 0) return;
  const { keys, why } = await keysFromSheet(report, connectionId, keyless, into.disk);
  let unkeyed = 0;
  for (const order of keyless) {
    const key = keys.get(order.row);
    if (key === undefined) unkeyed += 1;
    else add(into.entries, key, 'created', refOf(report, order), report.finishedAt);
  }
  into.counts.keyless += keyless.length;
  into.counts.rekeyed += keyless.length - unkeyed;
  if (unkeyed > 0)
    into.counts.unkeyed.push({ count: unkeyed, sheetId: report.sheetId, dir: report.dir, why });
}

interface EntryRef {
  sheetId: string;
  row: number;
  orderId: number | undefined;
}

function refOf(report: ReportedSheet, order: ReportedOrder): EntryRef {
  return { sheetId: report.sheetId, row: order.row, orderId: order.orderId };
}

/**
 * The first import of a key is the one its later rows are duplicates of; one made longer ago than
 * the ledger remembers is left out. A time that cannot be read (`when`) counts as today.
 */
function add(
  entries: Entries,
  key: string,
  state: 'created' | 'unknown',
  { sheetId, row, orderId }: EntryRef,
  when: string,
): void {
  if (entries.byKey.has(key)) return;
  const at = Date.parse(when);
  const madeAt = Number.isFinite(at) ? at : undefined;
  if (madeAt !== undefined && !entries.remembers(madeAt)) return;
  const entry = `${state}|${sheetId}|${row}|${orderId ?? ''}`;
  entries.byKey.set(key, { state, entry, ...(madeAt !== undefined && { madeAt }) });
}

/** Written as an earlier version's entries are adopted: never over one the ledger has. */
async function write(ledger: Ledger, entries: Entries, counts: RebuildCounts): Promise<void> {
  const all = [...entries.byKey];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    const taken = await Promise.all(
      batch.map(([key, { entry, madeAt }]) => ledger.adopt(key, entry, madeAt)),
    );
    batch.forEach(([, { state }], j) => {
      if (!taken[j]) counts.kept += 1;
      else if (state === 'created') counts.created += 1;
      else counts.unknown += 1;
    });
  }
}

/** Entries written at once (one batch of round trips to Redis). */
const BATCH = 500;

/** Whether a report is of `connection`: by its id; an older summary by its name. */
function belongs(
  report: ReportedSheet,
  connection: Pick<ConnectionInfo, 'id' | 'name'>,
  onlyOne: boolean,
): boolean {
  if (report.connectionId !== undefined) return report.connectionId === connection.id;
  if (report.connectionName !== undefined) return report.connectionName === connection.name;
  return onlyOne;
}

/** The Redis a rebuild writes to: each connection's ledger, then the installation's marker. */
export async function rebuildingIn(
  target: Parameters<typeof connectRedis>[0],
  settings: { queuePrefix: string; ledgerDays: number },
  installationId: string,
): Promise<{
  ledgerOf(connectionId: string): Ledger;
  markRebuilt(connectionIds: readonly string[], whole: boolean): Promise<void>;
  close(): void;
}> {
  const redis = await connectRedis(target);
  // Each office's ledger in its key space (its own on a Cluster); the marker's home is the prefix.
  const layout = KeyLayout.of(settings.queuePrefix, target);
  const home = new Keys(settings.queuePrefix);
  const { ledgerDays } = settings;
  return {
    ledgerOf: (connectionId) =>
      new Ledger(redis, layout.keysOf(connectionId), { connectionId, ledgerDays, now: Date.now }),
    markRebuilt: (ids, whole) =>
      markRebuilt(redis, home, installationId, ids, whole, Date.now, (id) => layout.keysOf(id)),
    close: () => {
      redis.disconnect();
    },
  };
}
