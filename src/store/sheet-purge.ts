/**
 * What Redis keeps of a sheet, found and forgotten for retention (docs/design.md "Operations",
 * "Retention"): its record, its rows' results, progress and fix links, and its agenda entries.
 * The duplicates ledger (hashes → order ids) and the content registration (`by-sha`) are not the
 * sheet's: they stay, so a row imported before is still `duplicate` after its sheet is purged.
 *
 * A purge takes the sheet out of the list every page reads (`allSheets`) and into `purging` in one
 * step, before any file goes; its keys go last. Interrupted anywhere, the sheet is either whole
 * and listed, or no longer shown and still found by the next purge (`purging`).
 */
import type { Redis } from 'ioredis';

import { agendaKey, checkedKey } from './agenda.js';
import type { Keys } from './keys.js';

/** A reported sheet old enough to purge, as its record says it. */
export interface PurgeCandidate {
  sheetId: string;
  name: string;
  connectionId: string;
  connectionName: string;
  finishedAt: string;
  /** Where its report was written: read from Redis, checked by whoever removes it. */
  reportDir: string | undefined;
  /**
   * The installation that queued it; undefined for a record of an older version, which whoever
   * removes it must know for its own by its report folder.
   */
  installation: string | undefined;
}

/** Which sheets a purge may touch. */
export interface PurgeScope {
  /** Reported before this (ms since the epoch); a sheet withdrawn already, whatever its date. */
  before: number;
  /** The configuration's connections (one, with `--connection`). */
  connectionIds: readonly string[];
  /** This data folder's installation: another's sheets are on another disk, and not ours. */
  installation: string;
}

/** A sheet id safe as a folder name: never `..`, never a path. */
const SHEET_ID = /^[\w-][\w.-]{0,199}$/;

/** What a purge reads of each sheet's record (not its scan or mapping: they may be large). */
const FIELDS = [
  'name',
  'state',
  'finishedAt',
  'connectionId',
  'connectionName',
  'installation',
  'reportDir',
] as const;

/** Sheets read per round trip. */
const BATCH = 200;

/** The sheets of `scope` reported before its date, oldest first. */
export async function purgeCandidates(
  redis: Redis,
  keys: Keys,
  scope: PurgeScope,
): Promise<PurgeCandidate[]> {
  // Scored by when each was queued: a sheet reported before the date was queued before it too.
  const listed = await redis.zrangebyscore(keys.allSheets, '-inf', `(${scope.before}`);
  // Withdrawn by a purge cut short: no page shows it any more, so it is finished whatever the
  // date this purge was given (a pass of RETENTION_DAYS after `purge --before` a later date).
  const withdrawn = new Set(await redis.smembers(keys.purging));
  const all = [...new Set([...listed, ...withdrawn])].filter(
    (id) => SHEET_ID.test(id) && id !== '..',
  );
  const found: PurgeCandidate[] = [];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    const pipeline = redis.pipeline();
    for (const id of batch) pipeline.hmget(keys.sheet(id), ...FIELDS);
    const answers = (await pipeline.exec()) ?? [];
    answers.forEach(([error, value], j) => {
      if (error) throw error;
      const record = Object.fromEntries(
        FIELDS.flatMap((field, k) => {
          const text = (value as Array<string | null>)[k];
          return typeof text === 'string' ? [[field, text]] : [];
        }),
      );
      const id = batch[j] ?? '';
      const candidate = candidateOf(id, record, {
        ...scope,
        ...(withdrawn.has(id) && { before: Infinity }),
      });
      if (candidate !== undefined) found.push(candidate);
    });
  }
  return found.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** A record's sheet, when it is reported, of the scope, and finished before its date. */
function candidateOf(
  sheetId: string,
  record: Record<string, string>,
  scope: PurgeScope,
): PurgeCandidate | undefined {
  const { state, finishedAt, connectionId, installation } = record;
  // A running sheet is never purged: its rows are still being sent.
  if (state !== 'done' || finishedAt === undefined || connectionId === undefined) return undefined;
  if (!scope.connectionIds.includes(connectionId)) return undefined;
  if (installation !== undefined && installation !== scope.installation) return undefined;
  const finished = Date.parse(finishedAt);
  if (!Number.isFinite(finished) || finished >= scope.before) return undefined;
  return {
    sheetId,
    name: record.name ?? sheetId,
    connectionId,
    connectionName: record.connectionName ?? connectionId,
    finishedAt,
    reportDir: record.reportDir,
    installation,
  };
}

/** Step one: no page lists the sheet any more; the next purge still finds it. */
export async function withdrawSheet(redis: Redis, keys: Keys, sheetId: string): Promise<void> {
  await redis
    .multi()
    .sadd(keys.purging, sheetId)
    .zrem(keys.allSheets, sheetId)
    .srem(keys.activeSheets, sheetId)
    .exec();
}

/** The keys a sheet owns (its ledger entries and content registration are not among them). */
export function sheetKeys(keys: Keys, sheetId: string): string[] {
  return [
    keys.sheet(sheetId),
    keys.results(sheetId),
    keys.final(sheetId),
    keys.fixed(sheetId),
    keys.fixedBy(sheetId),
    keys.creates(sheetId),
  ];
}

/** How many of a sheet's keys, and agenda entries, there are (for a dry run) or were removed. */
export interface ForgottenCounts {
  keys: number;
  agenda: number;
}

/** The sheet's keys and agenda entries counted, removed unless `dryRun`; its purge ends here. */
export async function forgetSheet(
  redis: Redis,
  keys: Keys,
  sheet: Pick<PurgeCandidate, 'sheetId' | 'connectionId'>,
  dryRun: boolean,
): Promise<ForgottenCounts> {
  const owned = sheetKeys(keys, sheet.sheetId);
  const exists = await redis.exists(...owned);
  const uids = await agendaOf(redis, keys, sheet);
  if (dryRun) return { keys: exists, agenda: uids.length };
  const multi = redis.multi();
  if (uids.length > 0)
    multi
      .hdel(agendaKey(keys, sheet.connectionId), ...uids)
      .zrem(checkedKey(keys, sheet.connectionId), ...uids);
  // Last: until now the sheet was in `purging`, so a purge cut short is finished next time.
  await multi
    .del(...owned)
    .srem(keys.purging, sheet.sheetId)
    .exec();
  return { keys: exists, agenda: uids.length };
}

/** The agenda's inspections of this sheet (store/agenda.ts keeps them per connection). */
async function agendaOf(
  redis: Redis,
  keys: Keys,
  sheet: Pick<PurgeCandidate, 'sheetId' | 'connectionId'>,
): Promise<string[]> {
  const key = agendaKey(keys, sheet.connectionId);
  const uids: string[] = [];
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', BATCH);
    for (let i = 0; i + 1 < flat.length; i += 2) {
      if (sheetIdOf(flat[i + 1] ?? '') === sheet.sheetId) uids.push(flat[i] ?? '');
    }
    cursor = next;
  } while (cursor !== '0');
  return uids;
}

function sheetIdOf(text: string): string | undefined {
  try {
    const entry = JSON.parse(text) as { sheetId?: unknown };
    return typeof entry.sheetId === 'string' ? entry.sheetId : undefined;
  } catch (error) {
    // A damaged entry names no sheet: it is trimmed as the agenda trims old ones.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
