/**
 * The installation's marker in Redis (docs/design.md §3, "A Redis that forgot"): the disk half is
 * `$DATA_DIR/installation.json` (installation.ts); this half is a field of `Keys.installations`.
 * A data folder that was used before (its marker not written now) and a Redis with no field of
 * it: Redis lost its data — restarted without AOF or snapshots, or it is another Redis — and
 * with it the duplicates ledger, so an import now could make second orders.
 *
 * Per connection, because the ledger is: `<installation>:<connection>` says that connection's
 * ledger is whole here. A connection new to an installation whose Redis kept its data starts a
 * whole (empty) ledger; after a loss, each connection is refused until `ledger rebuild` has
 * rebuilt its ledger, one connection or all.
 */
import type { Redis } from 'ioredis';

import type { Installation } from './installation.js';
import type { Keys } from './keys.js';
import { Refused } from '../errors.js';

export type MarkerState =
  /** The connection's ledger is whole in this Redis. */
  | 'known'
  /** First use (a new data folder, a first start after an upgrade, a new connection): marked now. */
  | 'marked'
  /** The data folder was used before, and this Redis has nothing of it. */
  | 'forgot';

/** The field that says `connectionId`'s ledger is whole: also checked by each create's claim. */
export function markerField(installationId: string, connectionId: string): string {
  return `${installationId}:${connectionId}`;
}

/**
 * KEYS: installations. ARGV: installation id, connection field, '1' when the data folder's
 * marker was written just now, the time. One step, so two processes starting at once agree.
 */
const CHECK = `
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then return 'known' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and ARGV[3] ~= '1' then return 'forgot' end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[4])
return 'marked'
`;

type ScriptedRedis = Redis & {
  oiMarkerCheck(
    key: string,
    id: string,
    field: string,
    created: string,
    at: string,
  ): Promise<string>;
};

/** Where this installation's connection stands in this Redis; marks a first use. */
export async function checkMarker(
  redis: Redis,
  keys: Keys,
  installation: Installation,
  connectionId: string,
  now: () => number = Date.now,
): Promise<MarkerState> {
  if (!('oiMarkerCheck' in redis))
    redis.defineCommand('oiMarkerCheck', { numberOfKeys: 1, lua: CHECK });
  const state = await (redis as ScriptedRedis).oiMarkerCheck(
    keys.installations,
    installation.id,
    markerField(installation.id, connectionId),
    installation.created ? '1' : '0',
    new Date(now()).toISOString(),
  );
  if (state === 'known' || state === 'marked' || state === 'forgot') return state;
  throw new Error(`unexpected answer of the marker check: ${state}`);
}

/**
 * A data folder used for the first time marks this Redis at once, before anything can fail (an
 * API away, a refused token, a Ctrl+C): its next start, no longer `created`, must not take the
 * missing field for a Redis that forgot.
 */
export async function markFirstUse(
  redis: Redis,
  keys: Keys,
  installation: Installation,
  now: () => number = Date.now,
): Promise<void> {
  if (installation.created)
    await redis.hsetnx(keys.installations, installation.id, new Date(now()).toISOString());
}

/** Whether the connection's ledger is still whole here (after a reconnect: Redis may be new). */
export async function markerKept(
  redis: Redis,
  keys: Keys,
  installationId: string,
  connectionId: string,
): Promise<boolean> {
  return (await redis.hexists(keys.installations, markerField(installationId, connectionId))) === 1;
}

/**
 * The connection's ledger rebuilt (`ledger rebuild`): its imports may run again. With `whole`
 * (every connection of the installation rebuilt), the installation's own field too.
 */
export async function markRebuilt(
  redis: Redis,
  keys: Keys,
  installationId: string,
  connectionIds: readonly string[],
  whole: boolean,
  now: () => number = Date.now,
): Promise<void> {
  const at = new Date(now()).toISOString();
  const fields = connectionIds.flatMap((id) => [markerField(installationId, id), at]);
  if (whole) fields.push(installationId, at);
  if (fields.length > 0) await redis.hset(keys.installations, ...fields);
}

/**
 * A data folder used before and a Redis with nothing of it: the connection's ledger is gone, so
 * nothing of it may be imported until `ledger rebuild` (Refused, 'redis.forgot'). Marks a first use.
 */
export async function refuseForgetful(
  redis: Redis,
  keys: Keys,
  installation: Installation,
  connection: { id: string; name: string },
  now: () => number,
): Promise<void> {
  if ((await checkMarker(redis, keys, installation, connection.id, now)) !== 'forgot') return;
  throw new Refused(
    'redis.forgot',
    `Redis has none of this data folder's imports (it restarted without its data, or it is another Redis): the duplicates ledger of connection "${connection.name}" is gone, so its imports are refused until you run \`order-importer ledger rebuild\`.`,
    { values: { connection: connection.name } },
  );
}
