/**
 * Before connections, "imported before" (the duplicates ledger, the registry of sheets by content)
 * was scoped by the API's base URL as the user had typed it. An installation upgraded with such
 * entries must not import those rows again: the first time a connection of that API starts, the
 * entries whose old scope is a spelling of its API are copied under its id (entries it already has
 * win), into the compact ledger. The sandbox's old entries are not carried over: its identity was its folder alone, which
 * cannot tell a sandbox started over from the old one.
 */
import type { Redis } from 'ioredis';

import type { Keys } from '../keys.js';
import type { Ledger } from '../ledger.js';
import {
  apiIdentity,
  type ConnectionInfo,
  normaliseBaseUrl,
} from '../../connections/connection.js';
import { isKnown } from '../../errors.js';

/** The part of an old key before the row key (`<scope>|ref|…`, `<scope>|fp|…`) or the hash. */
const LEDGER_FIELD = /^(.*?)\|(ref|fp)\|(.*)$/s;
const REGISTRY_FIELD = /^(.*?)\|([0-9a-f]{64})$/;

export async function adoptLegacyScope(
  redis: Redis,
  keys: Keys,
  connection: Pick<ConnectionInfo, 'id' | 'apiBaseUrl' | 'sandbox'>,
  ledger: Ledger,
): Promise<{ ledger: number; sheets: number; compacted: number }> {
  // Its own entries first: they win over the same rows kept under an old scope.
  const done = {
    ledger: 0,
    sheets: 0,
    compacted: await compactOwnEntries(redis, keys, connection.id, ledger),
  };
  if (connection.sandbox) return done;
  const marker = `${keys.connections}:${connection.id}:legacy-adopted`;
  if ((await redis.exists(marker)) === 1) return done;
  const ours = apiIdentity(connection.apiBaseUrl);
  const isOurs = (scope: string) => sameApi(scope, ours);
  done.ledger = await eachField(redis, keys.ledger, LEDGER_FIELD, isOurs, async (m, entry) =>
    ledger.adopt(`${connection.id}|${m[2]}|${m[3]}`, entry),
  );
  done.sheets = await eachField(
    redis,
    keys.bySha,
    REGISTRY_FIELD,
    isOurs,
    async (m, entry) => (await redis.hsetnx(keys.bySha, `${connection.id}|${m[2]}`, entry)) === 1,
  );
  await redis.set(marker, new Date().toISOString());
  return done;
}

/**
 * The entries this connection wrote to the ledger before it was compact (one field per row key,
 * kept forever), moved into the compact one once: remembered from today, gone from the old hash.
 */
async function compactOwnEntries(
  redis: Redis,
  keys: Keys,
  connectionId: string,
  ledger: Ledger,
): Promise<number> {
  const marker = `${keys.connections}:${connectionId}:ledger-compacted`;
  if ((await redis.exists(marker)) === 1) return 0;
  const moved = await eachField(
    redis,
    keys.ledger,
    LEDGER_FIELD,
    (scope) => scope === connectionId,
    async (m, entry) => {
      const taken = await ledger.adopt(m[0], entry);
      await redis.hdel(keys.ledger, m[0]);
      return taken;
    },
  );
  await redis.set(marker, new Date().toISOString());
  return moved;
}

/** Whether an old scope (a URL as typed) names the same API; anything else is not ours. */
function sameApi(scope: string, ours: string): boolean {
  if (!/^https?:\/\//i.test(scope)) return false;
  try {
    return apiIdentity(normaliseBaseUrl(scope)) === ours;
  } catch (error) {
    if (isKnown(error, 'connection.url-invalid')) return false;
    throw error;
  }
}

/** Runs `take` on each field of `key` of this shape and scope; returns how many it took. */
async function eachField(
  redis: Redis,
  key: string,
  shape: RegExp,
  isOurs: (scope: string) => boolean,
  take: (match: RegExpExecArray, entry: string) => Promise<boolean>,
): Promise<number> {
  let taken = 0;
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', 1000);
    cursor = next;
    const page: Array<Promise<boolean>> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const match = shape.exec(flat[i] ?? '');
      if (match?.[1] !== undefined && isOurs(match[1])) page.push(take(match, flat[i + 1] ?? ''));
    }
    // A page at a time: its commands go out together rather than one round trip each.
    for (const took of await Promise.all(page)) if (took) taken += 1;
  } while (cursor !== '0');
  return taken;
}
