/**
 * Whether Redis keeps its data on disk (docs/design.md §3, "A Redis that forgot"). Its own
 * default, and many a "local" Redis, keeps nothing: a restart then loses the imports in flight
 * and the duplicates ledger. Asked once at start: `CONFIG GET appendonly` and `save` where
 * allowed, else `INFO persistence` alone (a managed Redis may refuse CONFIG).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { type Words, wordsFor } from '../language/words.js';
import { connectRedis } from './connect.js';
import type { RedisTarget } from './target.js';

export type Persistence =
  /** AOF on: a restart loses at most a second of writes. */
  | { kind: 'aof' }
  /** Snapshots only: a restart loses what was written since the last one. */
  | { kind: 'snapshots'; rules: string }
  /** Neither: a restart loses everything. */
  | { kind: 'none' }
  /** CONFIG refused and INFO says no AOF: snapshots may or may not be taken. */
  | { kind: 'unknown' };

/** What Redis says of its persistence. */
export async function persistenceOf(redis: Redis): Promise<Persistence> {
  const info = fieldsOf(await redis.info('persistence'));
  if (info.get('aof_enabled') === '1') return { kind: 'aof' };
  const config = await configOf(redis);
  if (config === undefined) {
    // A snapshot taken since start (or a save in progress) shows that rules are set.
    const saved = info.get('rdb_bgsave_in_progress') === '1' || info.get('rdb_saves') !== '0';
    return info.has('rdb_saves') && saved ? { kind: 'snapshots', rules: '' } : { kind: 'unknown' };
  }
  if (config.appendonly === 'yes') return { kind: 'aof' };
  return config.save.trim() === '' ? { kind: 'none' } : { kind: 'snapshots', rules: config.save };
}

/** `CONFIG GET`'s answer, or undefined when the server refuses CONFIG (a managed Redis). */
async function configOf(redis: Redis): Promise<{ appendonly: string; save: string } | undefined> {
  try {
    const [, appendonly = ''] = (await redis.config('GET', 'appendonly')) as string[];
    const [, save = ''] = (await redis.config('GET', 'save')) as string[];
    return { appendonly, save };
  } catch (error) {
    // A refusal is an answer (ERR unknown command, NOPERM); a connection failure is not.
    if (error instanceof Error && /^(ERR|NOPERM)/.test(error.message)) return undefined;
    throw error;
  }
}

function fieldsOf(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/** What a person is told of it, once at start; undefined when there is nothing to say. */
export function persistenceWarning(
  persistence: Persistence,
  where: string,
  words: Words = wordsFor('en'),
): string | undefined {
  if (persistence.kind === 'aof') return undefined;
  return words.t('cli.redis.forgetful', {
    where,
    kind: persistence.kind,
    rules:
      persistence.kind === 'snapshots' && persistence.rules !== ''
        ? ` (save ${persistence.rules})`
        : '',
  });
}

/** Said once per process, where Redis is first resolved: never on a reconnect. */
export async function warnIfForgetful(
  target: RedisTarget,
  announce: (line: string) => void,
  logger: Logger | undefined,
  words: Words = wordsFor('en'),
): Promise<void> {
  let persistence: Persistence | undefined;
  const client = await connectRedis(target);
  try {
    persistence = await persistenceOf(client);
  } catch (error) {
    // Not knowing is no reason not to start: the marker still notices a Redis that forgot.
    logger?.debug({ err: error }, 'Redis did not say whether it keeps its data on disk');
  } finally {
    client.disconnect();
  }
  const where = words.t('cli.redis.at', { url: target.shown });
  const warning = persistence && persistenceWarning(persistence, where, words);
  if (warning === undefined) return;
  announce(warning);
  logger?.warn({ redis: target.shown, persistence: persistence?.kind }, 'Redis has no AOF');
}
