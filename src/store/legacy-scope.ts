/**
 * Before connections, "imported before" (the duplicates ledger, the registry of sheets by content)
 * was scoped by the API's base URL as the user had typed it. An installation upgraded with such
 * entries must not import those rows again: the first time a connection of that API starts, the
 * entries whose old scope is a spelling of its API are copied under its id (entries it already has
 * win). The sandbox's old entries are not carried over: its identity was its folder alone, which
 * cannot tell a sandbox started over from the old one.
 */
import type { Redis } from 'ioredis';

import type { Keys } from './keys.js';
import {
  apiIdentity,
  type ConnectionInfo,
  ConnectionUrlError,
  normaliseBaseUrl,
} from '../connections/connection.js';

/** The part of an old key before the row key (`<scope>|ref|…`, `<scope>|fp|…`) or the hash. */
const LEDGER_FIELD = /^(.*?)\|(ref|fp)\|(.*)$/s;
const REGISTRY_FIELD = /^(.*?)\|([0-9a-f]{64})$/;

export async function adoptLegacyScope(
  redis: Redis,
  keys: Keys,
  connection: Pick<ConnectionInfo, 'id' | 'apiBaseUrl' | 'sandbox'>,
): Promise<{ ledger: number; sheets: number }> {
  const done = { ledger: 0, sheets: 0 };
  if (connection.sandbox) return done;
  const marker = `${keys.connections}:${connection.id}:legacy-adopted`;
  if ((await redis.exists(marker)) === 1) return done;
  const ours = apiIdentity(connection.apiBaseUrl);
  const isOurs = (scope: string) => sameApi(scope, ours);
  done.ledger = await copyFields(redis, keys.ledger, LEDGER_FIELD, isOurs, (m) =>
    m[3] === undefined ? undefined : `${connection.id}|${m[2]}|${m[3]}`,
  );
  done.sheets = await copyFields(redis, keys.bySha, REGISTRY_FIELD, isOurs, (m) =>
    m[2] === undefined ? undefined : `${connection.id}|${m[2]}`,
  );
  await redis.set(marker, new Date().toISOString());
  return done;
}

/** Whether an old scope (a URL as typed) names the same API; anything else is not ours. */
function sameApi(scope: string, ours: string): boolean {
  if (!/^https?:\/\//i.test(scope)) return false;
  try {
    return apiIdentity(normaliseBaseUrl(scope)) === ours;
  } catch (error) {
    if (error instanceof ConnectionUrlError) return false;
    throw error;
  }
}

async function copyFields(
  redis: Redis,
  key: string,
  shape: RegExp,
  isOurs: (scope: string) => boolean,
  renamed: (match: RegExpExecArray) => string | undefined,
): Promise<number> {
  let copied = 0;
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', 1000);
    cursor = next;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i] ?? '';
      const match = shape.exec(field);
      if (!match || match[1] === undefined || !isOurs(match[1])) continue;
      const target = renamed(match);
      if (target !== undefined && (await redis.hsetnx(key, target, flat[i + 1] ?? '')) === 1)
        copied += 1;
    }
  } while (cursor !== '0');
  return copied;
}
