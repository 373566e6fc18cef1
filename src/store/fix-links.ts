/**
 * A sheet dropped back from failed/ linked both ways with the sheet it fixes (report/fixes.ts
 * decides what counts): on the original, which of its rows were fixed later and by which sheet
 * (the first fix of a row stays), with how many of its invalid and failed rows that makes; on the
 * fix, which sheet it fixes. Kept beside the sheets' records, for the dashboard; the original's
 * report is written once and stays as it is.
 */
import type { Redis } from 'ioredis';

import type { Keys } from './keys.js';

/** What the store knows of a sheet's fixes. */
export interface FixLinksOf {
  /** The sheet this one fixes rows of. */
  fixes?: string;
  /** Its rows fixed later, by the status they had. */
  fixed: { invalid: number; failed: number };
  /** The sheets that fixed them, in the order they did, with how many rows each. */
  by: Array<{ sheetId: string; rows: number }>;
}

// KEYS: fixed, fixed-by, original's record, fix's record. ARGV: fixId, originalId, row, status, …
// Returns how many rows this call linked (a row fixed before keeps its first fix).
const RECORD = `
local added = 0
for i = 3, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[1]) == 1 then
    redis.call('HINCRBY', KEYS[3], 'fixed:' .. ARGV[i + 1], 1)
    added = added + 1
  end
end
if added > 0 then
  redis.call('HINCRBY', KEYS[2], ARGV[1], added)
  if redis.call('HEXISTS', KEYS[2], '#' .. ARGV[1]) == 0 then
    redis.call('HSET', KEYS[2], '#' .. ARGV[1], redis.call('HLEN', KEYS[2]))
  end
end
redis.call('HSETNX', KEYS[4], 'fixes', ARGV[2])
return added
`;

/** Fixing sheets shown per original, at most (the rest are counted, not named). */
const FIXERS_SHOWN = 20;

type ScriptedRedis = Redis & {
  oiRecordFixes(
    fixed: string,
    fixedBy: string,
    original: string,
    fix: string,
    ...args: string[]
  ): Promise<number>;
};

export class FixLinks {
  readonly #redis: ScriptedRedis;

  constructor(
    redis: Redis,
    readonly keys: Keys,
  ) {
    if (!('oiRecordFixes' in redis)) {
      redis.defineCommand('oiRecordFixes', { numberOfKeys: 4, lua: RECORD });
    }
    this.#redis = redis as ScriptedRedis;
  }

  /**
   * Records that sheet `fixId` fixed these rows of `originalId` (each with the status it had
   * there); returns how many were not fixed before. Done again, it changes nothing.
   */
  async record(
    originalId: string,
    fixId: string,
    rows: ReadonlyArray<readonly [row: number, status: 'invalid' | 'failed']>,
  ): Promise<number> {
    return this.#redis.oiRecordFixes(
      this.keys.fixed(originalId),
      this.keys.fixedBy(originalId),
      this.keys.sheet(originalId),
      this.keys.sheet(fixId),
      fixId,
      originalId,
      ...rows.flatMap(([row, status]) => [String(row), status]),
    );
  }

  /** What the store knows of sheet `sheetId`'s fixes, both ways. */
  async of(sheetId: string): Promise<FixLinksOf> {
    const [[fixes, invalid, failed], by] = await Promise.all([
      this.#redis.hmget(this.keys.sheet(sheetId), 'fixes', 'fixed:invalid', 'fixed:failed'),
      this.#redis.hgetall(this.keys.fixedBy(sheetId)),
    ]);
    const fixers = Object.entries(by)
      .filter(([id]) => !id.startsWith('#'))
      .map(([id, rows]) => ({ sheetId: id, rows: Number(rows), at: Number(by[`#${id}`] ?? 0) }))
      .sort((a, b) => a.at - b.at)
      .slice(0, FIXERS_SHOWN)
      .map(({ sheetId: id, rows }) => ({ sheetId: id, rows }));
    return {
      ...(typeof fixes === 'string' && { fixes }),
      fixed: { invalid: Number(invalid ?? 0), failed: Number(failed ?? 0) },
      by: fixers,
    };
  }

  /** Each row of `sheetId` fixed later → the sheet that fixed it. */
  async rowsOf(sheetId: string): Promise<Map<number, string>> {
    const rows = await this.#redis.hgetall(this.keys.fixed(sheetId));
    return new Map(Object.entries(rows).map(([row, by]) => [Number(row), by]));
  }
}
