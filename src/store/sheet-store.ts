/**
 * Each sheet's state in Redis: its record, every row's final result, and the set of final rows
 * that tells when the report is due. A row counts once however often it is finished, and the
 * report is queued by exactly one caller (Lua, atomic).
 */
import { dirname } from 'node:path';

import type { Redis } from 'ioredis';
import { z } from 'zod';

import { type Mapping, mappingFromRecord, mappingRecord } from '../orders/mapping.js';
import type { ResolvedFolder } from '../orders/open-attachment.js';
import { folderOf } from '../orders/resolve-folder.js';
import type { SheetInfo } from '../sheets/types.js';
import { FixLinks } from './fix-links.js';
import type { Keys } from './keys.js';
import type { ScannedSheet } from './taken-sheet.js';
import {
  parseOutcome,
  ROW_STATUSES,
  type RowOutcome,
  rowResultSchema,
  type RowStatus,
} from '../glossary.js';

export const SHEET_STATES = ['queued', 'reading', 'processing', 'reporting', 'done'] as const;
export type SheetState = (typeof SHEET_STATES)[number];

const sheetSchema = z.object({
  sheetId: z.string(),
  path: z.string(),
  name: z.string(),
  sha256: z.string(),
  /**
   * The original file's version when it was copied (`sheet-copy.ts`); set, the sheet is read from
   * its private copy. Unset only for a sheet queued before copies were made: read at `path`.
   */
  origin: z.string().optional(),
  /**
   * Set, the sheet at `path` is its own private copy (sheet-copy.ts, `takeSheetInPlace`: the hot
   * folder's, in its work folder), not one kept under the data folder's `sheets/`.
   */
  inPlace: z
    .literal('1')
    .optional()
    .transform((v) => v !== undefined),
  state: z.enum(SHEET_STATES),
  startedAt: z.string(),
  /** The connection the sheet was queued for: only its workers read it or send its rows. */
  connectionId: z.string().optional(),
  /** That connection's name when it was queued (`gent`; `default`, `sandbox`): for people. */
  connectionName: z.string().optional(),
  /**
   * The installation (installation.ts) whose data folder holds the sheet's private copy and, beside
   * the original it was taken from, its attachments: only its workers work the sheet's jobs.
   * Unset for a sheet queued by an older version: any worker works it, as then.
   */
  installation: z.string().optional(),
  /** That data folder's path as the process that queued the sheet knew it: for people. */
  dataDir: z.string().optional(),
  apiBaseUrl: z.string(),
  sandbox: z.enum(['0', '1']).transform((v) => v === '1'),
  allowDuplicates: z.enum(['0', '1']).transform((v) => v === '1'),
  /** Set once every row has been read. */
  total: z.coerce.number().int().optional(),
  /** The last row the sheet job has enqueued or settled. */
  checkpoint: z.coerce.number().int().default(0),
  /**
   * Set before the sheet job hands its first row on: rows are queued before the checkpoint
   * passes them, so a checkpoint of 0 alone does not prove that none was.
   */
  handing: z
    .literal('1')
    .optional()
    .transform((v) => v !== undefined),
  /** Rows counted by the sheet job's first pass (for progress before all are enqueued). */
  expected: z.coerce.number().int().optional(),
  format: z.string().optional(),
  delimiter: z.string().optional(),
  encoding: z.string().optional(),
  duplicateOf: z.string().optional(),
  warnings: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? [] : (JSON.parse(v) as string[]))),
  /** Why the sheet could not be read at all. */
  error: z.string().optional(),
  /** Field → the sheet's own column name (CSV), to name columns in the report. */
  columns: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? {} : (JSON.parse(v) as Record<string, string>))),
  /**
   * The sheet's mapping, found when it was queued (orders/mapping-files.ts), for any worker:
   * a MappingRecord.
   */
  mapping: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : (JSON.parse(v) as unknown))),
  /**
   * The one pass over the sheet when it was queued (taken-sheet.ts): its copy's scan and its
   * rows. Unset for a sheet whose copy could not be read then, or queued by an older version:
   * read and scanned again, as then.
   */
  scan: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : (JSON.parse(v) as ScannedSheet))),
  finishedAt: z.string().optional(),
  reportDir: z.string().optional(),
  reportWrites: z.coerce.number().int().default(0),
});
export type SheetRecord = z.output<typeof sheetSchema>;

/** JSON read back from Redis; undefined when it is not JSON (the caller's schema refuses it). */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The mapping a sheet was queued with, checked again as any outside input is. */
export function sheetMapping(sheet: SheetRecord): Mapping | undefined {
  const { mapping } = sheet;
  if (mapping === undefined) return undefined;
  // An older version's column pairs were upgraded at start-up (store/migrations/, number 1).
  return mappingFromRecord(mapping, `sheet ${sheet.sheetId}`);
}

/**
 * A sheet that ended before a single row of it was handed on (its copy lost, a job given up):
 * its content was never imported, so it is no "imported before" for a later sheet of the same
 * bytes. (One that ends so now gives its registration up at once, outcome.ts; this also tells
 * one left registered by an older version, which wrote no `handing` mark.)
 */
export function handedNothingOn(sheet: SheetRecord): boolean {
  return (
    sheet.state === 'done' && !sheet.handing && sheet.checkpoint === 0 && sheet.error !== undefined
  );
}

/** Fields of a sheet's record that change while it is imported. */
export type SheetUpdate = Partial<
  Record<
    | 'state'
    | 'format'
    | 'delimiter'
    | 'encoding'
    | 'error'
    | 'finishedAt'
    | 'reportDir'
    | 'duplicateOf',
    string
  >
> & {
  checkpoint?: number;
  expected?: number;
  warnings?: string[];
  columns?: Record<string, string>;
};

export interface NewSheet {
  mapping?: Mapping;
  sheetId: string;
  path: string;
  name: string;
  sha256: string;
  connectionId: string;
  connectionName?: string;
  installation?: string;
  dataDir?: string;
  origin?: string;
  /** The file at `path` is its own private copy (`takeSheetInPlace`). */
  inPlace?: boolean;
  apiBaseUrl: string;
  sandbox: boolean;
  allowDuplicates: boolean;
  startedAt: string;
  duplicateOf?: string;
  /** What the pass over its copy found (taken-sheet.ts): read again by no later stage. */
  taken?: { scanned: ScannedSheet; info: SheetInfo };
}

// KEYS: sheet, results, final. ARGV: row, status, outcome, row, status, outcome, …
// Returns {the statuses of the rows newly final, 1 when the report is now due (and this caller
// must queue it)}.
const FINALIZE = `
local added = {}
for i = 1, #ARGV, 3 do
  if redis.call('SADD', KEYS[3], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    redis.call('HINCRBY', KEYS[1], 'n:' .. ARGV[i + 1], 1)
    table.insert(added, ARGV[i + 1])
  end
end
local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '-1')
if total >= 0 and redis.call('SCARD', KEYS[3]) >= total
  and redis.call('HSETNX', KEYS[1], 'reportQueued', '1') == 1 then
  return {added, 1}
end
return {added, 0}
`;

// KEYS: sheet, final. ARGV: total. Returns 1 when the report is now due.
const SET_TOTAL = `
redis.call('HSET', KEYS[1], 'total', ARGV[1], 'state', 'processing')
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[1])
  and redis.call('HSETNX', KEYS[1], 'reportQueued', '1') == 1 then
  return 1
end
return 0
`;

// KEYS: by-sha. ARGV: content, from, to. Moves a content's registration only if `from` holds it.
const REPLACE_SHA = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
`;

// KEYS: by-sha, sheet. ARGV: content, earlier, sheetId. A sheet queued as a duplicate of
// `earlier` takes the content over when `earlier` never imported it (its registration released,
// or still its own): it is no duplicate then. Returns the holder when a third sheet has it.
const ADOPT_SHA = `
local holder = redis.call('HGET', KEYS[1], ARGV[1])
if holder == false or holder == ARGV[2] or holder == ARGV[3] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  redis.call('HDEL', KEYS[2], 'duplicateOf')
  return false
end
redis.call('HSET', KEYS[2], 'duplicateOf', holder)
return holder
`;

// KEYS: by-sha, sheet, active, all. ARGV: content, sheetId, score, field, value, …
// Registers the content to this sheet and writes the sheet's record in one step, so a
// registration never points at a sheet without a record; returns the holder when taken.
const REGISTER = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return redis.call('HGET', KEYS[1], ARGV[1])
end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2])
return false
`;

type ScriptedRedis = Redis & {
  oiFinalize(
    sheet: string,
    results: string,
    final: string,
    ...args: string[]
  ): Promise<[string[], number]>;
  oiSetTotal(sheet: string, final: string, total: string): Promise<number>;
  oiReplaceSha(bySha: string, content: string, from: string, to: string): Promise<number>;
  oiAdoptSha(
    bySha: string,
    sheet: string,
    content: string,
    earlier: string,
    sheetId: string,
  ): Promise<string | null>;
  oiRegister(
    bySha: string,
    sheet: string,
    active: string,
    all: string,
    ...args: string[]
  ): Promise<string | null>;
};

function recordFields(sheet: NewSheet): Record<string, string> {
  return {
    sheetId: sheet.sheetId,
    path: sheet.path,
    name: sheet.name,
    sha256: sheet.sha256,
    state: 'queued',
    startedAt: sheet.startedAt,
    connectionId: sheet.connectionId,
    ...(sheet.connectionName !== undefined && { connectionName: sheet.connectionName }),
    ...(sheet.installation !== undefined && { installation: sheet.installation }),
    ...(sheet.dataDir !== undefined && { dataDir: sheet.dataDir }),
    apiBaseUrl: sheet.apiBaseUrl,
    sandbox: sheet.sandbox ? '1' : '0',
    allowDuplicates: sheet.allowDuplicates ? '1' : '0',
    ...(sheet.duplicateOf !== undefined && { duplicateOf: sheet.duplicateOf }),
    ...(sheet.origin !== undefined && { origin: sheet.origin }),
    ...(sheet.inPlace === true && { inPlace: '1' }),
    ...(sheet.mapping !== undefined && { mapping: JSON.stringify(mappingRecord(sheet.mapping)) }),
    ...(sheet.taken !== undefined && takenFields(sheet.taken)),
  };
}

/**
 * The pass's findings, as the sheet job's own first pass recorded them (and its scan); its rows
 * are `expected` once the sheet job finds the copy there (split/sheet-reading.ts).
 */
function takenFields({ scanned, info }: NonNullable<NewSheet['taken']>): Record<string, string> {
  return {
    scan: JSON.stringify(scanned),
    format: info.format,
    encoding: info.encoding,
    ...(info.delimiter !== undefined && { delimiter: info.delimiter }),
    ...(info.columns !== undefined && { columns: JSON.stringify(info.columns) }),
  };
}

/** Where a sheet's files are: fields of its record that never change once it is queued. */
export interface SheetPlace {
  /** Where it was read from (its record's `path`). */
  path: string;
  /** The installation whose disk holds its files; undefined for a sheet of an older version. */
  installation?: string;
  /** That installation's data folder, as the process that queued it knew it. */
  dataDir?: string;
}

/** Sheet places remembered by a process; forgotten all at once past this. */
const PLACES_KEPT = 1000;

export class SheetStore {
  readonly #redis: ScriptedRedis;
  readonly #places = new Map<string, SheetPlace>();
  /** Sheets this process was told are another installation's (sheet-home.ts says it once). */
  readonly #away = new Set<string>();
  /** Sheets' folders as this process resolved them, once per sheet (orders/resolve-folder.ts). */
  readonly #folders = folderOf();
  /** Which sheets fixed rows of which (a failed/ sheet dropped back), both ways. */
  readonly fixes: FixLinks;

  constructor(
    redis: Redis,
    readonly keys: Keys,
  ) {
    if (!('oiFinalize' in redis)) {
      redis.defineCommand('oiFinalize', { numberOfKeys: 3, lua: FINALIZE });
      redis.defineCommand('oiSetTotal', { numberOfKeys: 2, lua: SET_TOTAL });
      redis.defineCommand('oiReplaceSha', { numberOfKeys: 1, lua: REPLACE_SHA });
      redis.defineCommand('oiAdoptSha', { numberOfKeys: 2, lua: ADOPT_SHA });
      redis.defineCommand('oiRegister', { numberOfKeys: 4, lua: REGISTER });
    }
    this.#redis = redis as ScriptedRedis;
    this.fixes = new FixLinks(redis, keys);
  }

  async create(sheet: NewSheet): Promise<void> {
    await this.#redis
      .multi()
      .hset(this.keys.sheet(sheet.sheetId), recordFields(sheet))
      .sadd(this.keys.activeSheets, sheet.sheetId)
      .zadd(this.keys.allSheets, Date.parse(sheet.startedAt), sheet.sheetId)
      .exec();
  }

  /**
   * Registers `content` (connection and sha256) as imported by this sheet and records the sheet,
   * both or neither; undefined when done, else the sheet that holds the content already.
   */
  async register(content: string, sheet: NewSheet): Promise<string | undefined> {
    const holder = await this.#redis.oiRegister(
      this.keys.bySha,
      this.keys.sheet(sheet.sheetId),
      this.keys.activeSheets,
      this.keys.allSheets,
      content,
      sheet.sheetId,
      String(Date.parse(sheet.startedAt)),
      ...Object.entries(recordFields(sheet)).flat(),
    );
    return holder ?? undefined;
  }

  async get(sheetId: string): Promise<SheetRecord | undefined> {
    const hash = await this.#redis.hgetall(this.keys.sheet(sheetId));
    // No record, only counters a row wrote since: a Redis that came back without its data
    // (docs/design.md §3) knows the sheet no more than one that never had it.
    if (hash.sheetId === undefined) return undefined;
    return sheetSchema.parse(hash);
  }

  /**
   * Where a sheet was read from (its record's `path`), asked of Redis once per process: every
   * upload of its rows needs it.
   */
  async pathOf(sheetId: string): Promise<string | undefined> {
    return (await this.placeOf(sheetId))?.path;
  }

  /**
   * Where a sheet's files are (its path, and the installation whose disk holds them), asked of
   * Redis once per sheet and process; undefined when the sheet has no record.
   */
  async placeOf(sheetId: string): Promise<SheetPlace | undefined> {
    const known = this.#places.get(sheetId);
    if (known !== undefined) return known;
    const [path, installation, dataDir] = await this.#redis.hmget(
      this.keys.sheet(sheetId),
      'path',
      'installation',
      'dataDir',
    );
    if (path === null || path === undefined) return undefined;
    const place: SheetPlace = {
      path,
      ...(typeof installation === 'string' && { installation }),
      ...(typeof dataDir === 'string' && { dataDir }),
    };
    if (this.#places.size >= PLACES_KEPT) this.#places.clear();
    this.#places.set(sheetId, place);
    return place;
  }

  /** True the first time this process asks for a sheet whose files are on another disk. */
  firstTimeAway(sheetId: string): boolean {
    if (this.#away.has(sheetId)) return false;
    if (this.#away.size >= PLACES_KEPT) this.#away.clear();
    this.#away.add(sheetId);
    return true;
  }

  /**
   * The folder a sheet's attachments are read from: where its record says the sheet is, resolved
   * once per sheet in this process (its real path, on a local disk or not); undefined when the
   * sheet has no record.
   */
  async folderOf(sheetId: string): Promise<{ root: string; folder: ResolvedFolder } | undefined> {
    const path = await this.pathOf(sheetId);
    if (path === undefined) return undefined;
    const root = dirname(path);
    return { root, folder: await this.#folders(root, sheetId) };
  }

  async update(sheetId: string, fields: SheetUpdate): Promise<void> {
    const { warnings, checkpoint, expected, columns, ...rest } = fields;
    const values: Record<string, string> = { ...(rest as Record<string, string>) };
    if (warnings !== undefined) values.warnings = JSON.stringify(warnings);
    if (checkpoint !== undefined) values.checkpoint = String(checkpoint);
    if (expected !== undefined) values.expected = String(expected);
    if (columns !== undefined) values.columns = JSON.stringify(columns);
    await this.#redis.hset(this.keys.sheet(sheetId), values);
  }

  /** Marks the sheet as handing rows on: written before its first row is queued or recorded. */
  async markHanding(sheetId: string): Promise<void> {
    await this.#redis.hset(this.keys.sheet(sheetId), 'handing', '1');
  }

  /** The sheet that imported this content (`<api scope>|<sha256>`) before, if any. */
  async findBySha(content: string): Promise<string | undefined> {
    return (await this.#redis.hget(this.keys.bySha, content)) ?? undefined;
  }

  /** Registers this content as imported by `sheetId`; false when another sheet got there first. */
  async claimSha(content: string, sheetId: string): Promise<boolean> {
    return (await this.#redis.hsetnx(this.keys.bySha, content, sheetId)) === 1;
  }

  /** Moves this content's registration from `from` to `to`; false when `from` no longer holds it. */
  async replaceSha(content: string, from: string, to: string): Promise<boolean> {
    return (await this.#redis.oiReplaceSha(this.keys.bySha, content, from, to)) === 1;
  }

  /**
   * Sheet `sheetId`, queued as a duplicate of `earlier`, which never imported `content`, takes
   * the content over and is a duplicate no more: undefined. Else the sheet that holds it now
   * (recorded as the one this sheet duplicates).
   */
  async adoptSha(content: string, earlier: string, sheetId: string): Promise<string | undefined> {
    const holder = await this.#redis.oiAdoptSha(
      this.keys.bySha,
      this.keys.sheet(sheetId),
      content,
      earlier,
      sheetId,
    );
    return holder ?? undefined;
  }

  async forgetSha(content: string, sheetId: string): Promise<void> {
    if ((await this.findBySha(content)) === sheetId)
      await this.#redis.hdel(this.keys.bySha, content);
  }

  /**
   * Records final results; a row already final keeps its first result. True when this call made
   * the sheet complete: the caller (`report/due.ts`, the one that decides) then queues the report.
   */
  async finalize(
    sheetId: string,
    outcomes: ReadonlyArray<readonly [row: number, outcome: RowOutcome]>,
  ): Promise<boolean> {
    return (await this.finalizeCounted(sheetId, outcomes)).due;
  }

  /**
   * As finalize, and the statuses of the rows that became final by this call (one per row; a
   * row final before is not in it), for the process's counters.
   */
  async finalizeCounted(
    sheetId: string,
    outcomes: ReadonlyArray<readonly [row: number, outcome: RowOutcome]>,
  ): Promise<{ due: boolean; added: string[] }> {
    if (outcomes.length === 0) return { due: false, added: [] };
    const args = outcomes.flatMap(([row, outcome]) => [
      String(row),
      outcome.status,
      JSON.stringify(outcome),
    ]);
    const [added, due] = await this.#redis.oiFinalize(
      this.keys.sheet(sheetId),
      this.keys.results(sheetId),
      this.keys.final(sheetId),
      ...args,
    );
    return { due: due === 1, added };
  }

  /** Sets the number of rows once all are read; true when the report is due now. */
  async setTotal(sheetId: string, total: number): Promise<boolean> {
    return (
      (await this.#redis.oiSetTotal(
        this.keys.sheet(sheetId),
        this.keys.final(sheetId),
        String(total),
      )) === 1
    );
  }

  /** Final: recorded, or of a sheet already reported (whose per-row records are gone). */
  async isFinal(sheetId: string, row: number): Promise<boolean> {
    const [final, reported] = await Promise.all([
      this.#redis.sismember(this.keys.final(sheetId), String(row)),
      this.#redis.hget(this.keys.sheet(sheetId), 'reportDir'),
    ]);
    return final === 1 || reported !== null;
  }

  async finalCount(sheetId: string): Promise<number> {
    return this.#redis.scard(this.keys.final(sheetId));
  }

  /** The results of these rows, in the same order (undefined for a row not final). */
  async outcomes(sheetId: string, rows: readonly number[]): Promise<Array<RowOutcome | undefined>> {
    if (rows.length === 0) return [];
    const texts = await this.#redis.hmget(this.keys.results(sheetId), ...rows.map(String));
    return texts.map((text) => (text === null ? undefined : parseOutcome(text)));
  }

  /**
   * Some of the results recorded so far, from `cursor` on (HSCAN: `count` is a hint), with the
   * cursor to go on from ('0' when all were seen); an entry that is not a result is left out.
   */
  async scanOutcomes(
    sheetId: string,
    cursor: string,
    count: number,
  ): Promise<{ cursor: string; outcomes: Array<[row: number, outcome: RowOutcome]> }> {
    const [next, flat] = await this.#redis.hscan(
      this.keys.results(sheetId),
      cursor,
      'COUNT',
      count,
    );
    const outcomes: Array<[number, RowOutcome]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const row = Number(flat[i]);
      const parsed = rowResultSchema.safeParse(parseJsonText(flat[i + 1] ?? ''));
      if (Number.isInteger(row) && parsed.success) outcomes.push([row, parsed.data]);
    }
    return { cursor: next, outcomes };
  }

  /** Marks the report written; the rows' results then live in the report, not in Redis. */
  async markReported(sheetId: string, reportDir: string, finishedAt: string): Promise<void> {
    await this.#redis
      .multi()
      .hset(this.keys.sheet(sheetId), { state: 'done', reportDir, finishedAt })
      .hincrby(this.keys.sheet(sheetId), 'reportWrites', 1)
      .del(this.keys.results(sheetId), this.keys.final(sheetId), this.keys.creates(sheetId))
      .srem(this.keys.activeSheets, sheetId)
      .exec();
  }

  /** How many rows reached each status so far (for progress displays). */
  async statusCounts(sheetId: string): Promise<Record<RowStatus, number>> {
    const values = await this.#redis.hmget(
      this.keys.sheet(sheetId),
      ...ROW_STATUSES.map((s) => `n:${s}`),
    );
    return Object.fromEntries(ROW_STATUSES.map((s, i) => [s, Number(values[i] ?? 0)])) as Record<
      RowStatus,
      number
    >;
  }

  /** The most recently queued sheets, newest first; `skip` the newest ones left out. */
  async recentSheets(limit: number, skip = 0): Promise<string[]> {
    return this.#redis.zrevrange(this.keys.allSheets, skip, skip + limit - 1);
  }

  /** The connection each of these sheets was queued for (undefined: none, or no record). */
  async connectionsOf(sheetIds: readonly string[]): Promise<Array<string | undefined>> {
    if (sheetIds.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of sheetIds) pipeline.hget(this.keys.sheet(id), 'connectionId');
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, value]) => {
      if (error) throw error;
      return typeof value === 'string' ? value : undefined;
    });
  }

  /** Whether a purge withdrew the sheet (store/sheet-purge.ts): it is shown nowhere any more. */
  async isPurging(sheetId: string): Promise<boolean> {
    return (await this.#redis.sismember(this.keys.purging, sheetId)) === 1;
  }

  /** Sheets not yet reported (for the reconciler and progress displays). */
  async activeSheets(): Promise<string[]> {
    return this.#redis.smembers(this.keys.activeSheets);
  }

  /** Queues the report again when its first signal was lost: a sheet complete but unreported. */
  async reportOverdue(sheetId: string): Promise<boolean> {
    const sheet = await this.get(sheetId);
    if (!sheet || sheet.total === undefined || sheet.state === 'done') return false;
    return (await this.finalCount(sheetId)) >= sheet.total;
  }
}
