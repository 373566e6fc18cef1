/**
 * Migration 1: a sheet's mapping as a version before the mapping file's record stored it —
 * `import --mapping`'s columns as [column, field] pairs, the file not named — becomes the record
 * this version stores (orders/mapping.ts `MappingRecord`), read as that version read it: a flat
 * file of columns, given to `import`.
 */
import type { Migration, MigrationParts } from './migrations.js';

/** Sheets looked at per round trip. */
const BATCH = 200;

/** Sets a sheet's mapping only if it is still the old one (the sheet not removed meanwhile). */
const REPLACE = `
if redis.call('HGET', KEYS[1], 'mapping') == ARGV[1] then
  return redis.call('HSET', KEYS[1], 'mapping', ARGV[2])
end
return -1
`;

/** The record of a mapping stored as pairs; undefined when it is in this version's form. */
export function recordOfPairs(stored: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined; // not ours to mend: its reader refuses it
    throw error;
  }
  if (!Array.isArray(parsed)) return undefined;
  const pairs = parsed.filter(
    (pair): pair is [string, string] =>
      Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string',
  );
  const source = { kind: 'flag', file: 'the file given to import' };
  return JSON.stringify({ source, json: Object.fromEntries(pairs) });
}

/** Every sheet recorded (ZSCAN: one present throughout is seen, whatever is added or removed). */
async function run({ redis, keys }: MigrationParts): Promise<number> {
  let changed = 0;
  let cursor = '0';
  do {
    const [next, flat] = await redis.zscan(keys.allSheets, cursor, 'COUNT', BATCH);
    cursor = next;
    // Members and scores alternate.
    const sheetIds = flat.filter((_, i) => i % 2 === 0);
    const stored = await Promise.all(sheetIds.map((id) => redis.hget(keys.sheet(id), 'mapping')));
    for (const [i, sheetId] of sheetIds.entries()) {
      const old = stored[i] ?? null;
      const record = old === null ? undefined : recordOfPairs(old);
      if (old === null || record === undefined) continue;
      if ((await redis.eval(REPLACE, 1, keys.sheet(sheetId), old, record)) !== -1) changed += 1;
    }
  } while (cursor !== '0');
  return changed;
}

export const sheetMappingPairs: Migration = {
  id: 1,
  about: "sheets' mappings stored by an earlier version as column pairs now name their source",
  run,
};
