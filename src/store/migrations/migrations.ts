/**
 * Upgrades of what an earlier version stored in Redis, as numbered migrations: each runs once per
 * Redis prefix, when a process first opens its stores (stores.ts), and is recorded as done in
 * `keys.migrations` (number → when). Readers then know one form of the data only, instead of
 * each keeping a fallback for the forms before it.
 *
 * Beside them, each connection carries over, every time it starts, what versions before
 * connections and before the compact ledger kept of its rows (legacy-scope.ts): cheap when there
 * is nothing to carry, and it catches the rows an earlier process still wrote during an upgrade,
 * which the duplicates check must never miss.
 *
 * A migration may run twice (two processes starting at once, or a stop between its work and its
 * record): each is written so that running it again changes nothing. Data an older process writes
 * after its migration ran is not upgraded: every process of the older version is stopped before
 * the first of the new one starts (docs/operations.md, Upgrades).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import type { ConnectionInfo } from '../../connections/connection.js';
import type { Keys } from '../keys.js';
import type { Ledger } from '../ledger.js';
import { sheetMappingPairs } from './001-sheet-mapping.js';
import { rowStateOnJobs } from './002-row-state.js';
import { adoptLegacyScope } from './legacy-scope.js';

/** What a migration works on. */
export interface MigrationParts {
  redis: Redis;
  keys: Keys;
}

export interface Migration {
  /** Its number: migrations run in this order, each once. */
  id: number;
  /** What it upgrades, for the log line said when it changed something. */
  about: string;
  /** Upgrades every entry still in the old form; how many it changed. */
  run(parts: MigrationParts): Promise<number>;
}

/** Every migration, in the order they run. A new one gets the next number and a test. */
export const MIGRATIONS: readonly Migration[] = [sheetMappingPairs, rowStateOnJobs];

/** Runs the migrations not yet recorded as done under this prefix; the numbers it ran. */
export async function runMigrations(
  parts: MigrationParts,
  logger: Logger,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const { redis, keys } = parts;
  const done = new Set(await redis.hkeys(keys.migrations));
  const ran: number[] = [];
  for (const migration of migrations) {
    if (done.has(String(migration.id))) continue;
    const changed = await migration.run(parts);
    // Recorded only once its work is done: a stop in between runs it again, which is harmless.
    await redis.hsetnx(keys.migrations, String(migration.id), new Date().toISOString());
    if (changed > 0) logger.info({ migration: migration.id, changed }, migration.about);
    ran.push(migration.id);
  }
  return ran;
}

/**
 * Upgrades what earlier versions stored, before anything reads it: the numbered migrations not
 * yet done under this prefix, then the connection's rows kept by versions before it (each start).
 */
export async function upgradeStored(
  parts: MigrationParts & {
    connection: Pick<ConnectionInfo, 'id' | 'apiBaseUrl' | 'sandbox'>;
    ledger: Ledger;
    /**
     * Runs the numbered migrations once for every connection a process opens together (their
     * stores share a prefix): each one looks at every connection's data, so that once per
     * connection would grow with the square of the offices. None: here.
     */
    once?: (migrate: () => Promise<unknown>) => Promise<unknown>;
  },
  logger: Logger,
): Promise<void> {
  const { redis, keys, connection, ledger } = parts;
  const migrate = () => runMigrations({ redis, keys }, logger);
  await (parts.once ? parts.once(migrate) : migrate());
  const { compacted, ...adopted } = await adoptLegacyScope(redis, keys, connection, ledger);
  if (compacted > 0)
    logger.info(
      { connection: connection.id, rows: compacted },
      'the duplicates ledger of an earlier version was carried over to its compact form',
    );
  if (adopted.ledger + adopted.sheets > 0)
    logger.info(
      { connection: connection.id, ...adopted },
      'rows and sheets imported before connections existed are known to this connection',
    );
}
