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
 *
 * On a Cluster an office's keys are in a key space of its own (keys.ts, `KeyLayout`), on its
 * shard: its field is kept there, where each create's claim checks it, and also in the
 * installation's home (`Keys.installations` under QUEUE_PREFIX itself, with the installation's
 * field), on whichever shard that is. A shard that came back empty is then told from an office
 * new to the installation: the home still names the office.
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

/**
 * Where this installation's connection stands in this Redis; marks a first use. `home`: the
 * installation's own keys, when the office's (`keys`) are a space of their own (a Cluster).
 */
export async function checkMarker(
  redis: Redis,
  keys: Keys,
  installation: Installation,
  connectionId: string,
  now: () => number = Date.now,
  home: Keys = keys,
): Promise<MarkerState> {
  if (home.prefix !== keys.prefix)
    return checkApart(redis, { keys, home }, installation, connectionId, now);
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
 * The check of an office whose keys are apart from the installation's home, in steps (two keys
 * of two slots): two processes starting at once both mark, which is the same.
 */
async function checkApart(
  redis: Redis,
  { keys, home }: { keys: Keys; home: Keys },
  installation: Installation,
  connectionId: string,
  now: () => number,
): Promise<MarkerState> {
  const field = markerField(installation.id, connectionId);
  if ((await redis.hexists(keys.installations, field)) === 1) return 'known';
  const [office, known] = await redis.hmget(home.installations, field, installation.id);
  // The home names the office: its own space lost what it had.
  if (office !== null) return 'forgot';
  if (known === null && !installation.created) return 'forgot';
  const at = new Date(now()).toISOString();
  await redis.hsetnx(keys.installations, installation.id, at);
  await redis.hset(keys.installations, field, at);
  await redis.hsetnx(home.installations, installation.id, at);
  await redis.hset(home.installations, field, at);
  return 'marked';
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
 * (every connection of the installation rebuilt), the installation's own field too. `keysOf`:
 * each office's keys, when they are apart from the installation's home (`keys`, a Cluster).
 */
export async function markRebuilt(
  redis: Redis,
  keys: Keys,
  installationId: string,
  connectionIds: readonly string[],
  whole: boolean,
  now: () => number = Date.now,
  keysOf: (connectionId: string) => Keys = () => keys,
): Promise<void> {
  const at = new Date(now()).toISOString();
  const fields = connectionIds.flatMap((id) => [markerField(installationId, id), at]);
  if (whole) fields.push(installationId, at);
  if (fields.length > 0) await redis.hset(keys.installations, ...fields);
  for (const id of connectionIds) {
    const own = keysOf(id);
    if (own.prefix !== keys.prefix)
      await redis.hset(own.installations, markerField(installationId, id), at, installationId, at);
  }
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
  home: Keys = keys,
): Promise<void> {
  const state = await checkMarker(redis, keys, installation, connection.id, now, home);
  if (state !== 'forgot') return;
  throw new Refused(
    'redis.forgot',
    `Redis has none of this data folder's imports (it restarted without its data, or it is another Redis): the duplicates ledger of connection "${connection.name}" is gone, so its imports are refused until you run \`order-importer ledger rebuild\`.`,
    { values: { connection: connection.name } },
  );
}
