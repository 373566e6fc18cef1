/**
 * Everything the importer keeps in Redis for one connection, opened together on one client:
 * the sheets and their rows' results, each row's progress (its create's claim and answer), the duplicates ledger, the API's schedule, what
 * the hot folder did not take. The connection is made known first, so the dashboard finds it.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import type { ConnectionInfo } from '../connections/connection.js';
import { Keys } from './keys.js';
import { Ledger } from './ledger.js';
import { upgradeStored } from './migrations/migrations.js';
import { NotTaken } from './not-taken.js';
import { ApiPace } from './pace.js';
import { type Installation, markerField, refuseForgetful, RowProgress } from './row-progress.js';
import { SheetStore } from './sheet-store.js';

export { type Installation, markerKept } from './row-progress.js';

export interface Stores {
  keys: Keys;
  store: SheetStore;
  /** Each row's create and uploads as they stand, for every worker and attempt. */
  progress: RowProgress;
  ledger: Ledger;
  pace: ApiPace;
  notTaken: NotTaken;
}

export async function openStores(
  redis: Redis,
  options: {
    /** The office's prefix (keys.ts, `KeyLayout`). */
    prefix: string;
    /**
     * The installation's own prefix (QUEUE_PREFIX), where its marker is kept, when the office's
     * keys are apart from it (a Cluster); none: the office's.
     */
    home?: string;
    connection: ConnectionInfo;
    /** API requests per minute over every worker; undefined for none. */
    apiRateLimit: number | undefined;
    /** How long the duplicates ledger remembers a row (LEDGER_DAYS). */
    ledgerDays?: number;
    logger: Logger;
    now: () => number;
    /**
     * The data folder's marker: refused (Refused, 'redis.forgot') in a Redis that lost its data, and
     * checked by each create's claim (redis-marker.ts); none: neither (a tool, a test).
     */
    installation?: Installation;
    /** The numbered migrations run once for the connections a process opens together. */
    migrateOnce?: (migrate: () => Promise<unknown>) => Promise<unknown>;
  },
): Promise<Stores> {
  const { id, name, apiBaseUrl, sandbox } = options.connection;
  const keys = new Keys(options.prefix);
  const { installation } = options;
  const home = options.home === undefined ? keys : new Keys(options.home);
  if (installation !== undefined)
    await refuseForgetful(redis, keys, installation, options.connection, options.now, home);
  await redis.hset(keys.connections, id, JSON.stringify({ name, apiBaseUrl, sandbox }));
  const ledger = new Ledger(redis, keys, {
    connectionId: id,
    ledgerDays: options.ledgerDays,
    now: options.now,
  });
  // What earlier versions stored is upgraded before anything reads it (migrations/).
  const { migrateOnce: once } = options;
  await upgradeStored(
    { redis, keys, connection: options.connection, ledger, ...(once && { once }) },
    options.logger,
  );
  return {
    keys,
    store: new SheetStore(redis, keys),
    progress: new RowProgress(
      redis,
      keys,
      ledger,
      installation && markerField(installation.id, id),
    ),
    ledger,
    // The pace keeps the Redis server's time, one clock for every host (pace-scripts.ts).
    pace: new ApiPace(redis, keys.apiPace(id), options.apiRateLimit, { logger: options.logger }),
    notTaken: new NotTaken(redis, keys, { connectionId: id }),
  };
}
