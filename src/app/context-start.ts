/**
 * A process's context opened where it may work: in a Redis that still has this installation's
 * data (docs/design.md §3, "A Redis that forgot"), with an earlier stop lifted once the API took
 * the token again.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { type Context, type ContextParts, openContext } from '../context.js';
import { connectRedis } from '../redis/connect.js';
import type { RedisTarget } from '../redis/target.js';
import { importStopped, resumeImport, stopSaid } from '../rows/stop-import.js';
import { Keys } from '../store/keys.js';
import { markFirstUse } from '../store/redis-marker.js';
import { isKnown, type KnownError, UserError } from '../errors.js';
import { FORGOT_POLL_MS } from '../policy.js';
import { type Words, wordsFor } from '../language/words.js';

/**
 * The context. In a Redis that lost the installation's data (a restart without AOF) `import`
 * fails with one line; `watch` and `worker` say so once and wait, taking no sheet and working no
 * row, until `ledger rebuild` has run.
 */
export async function openRemembering(
  parts: ContextParts & { announce: (line: string) => void },
  options: { service?: boolean | undefined; signal?: AbortSignal | undefined },
): Promise<Context> {
  let told = false;
  const words = wordsFor(parts.settings.language ?? 'en');
  for (;;) {
    try {
      const ctx = await openContext(parts);
      await liftEarlierStop(ctx, parts.announce, words);
      return ctx;
    } catch (error) {
      if (!isKnown(error, 'redis.forgot')) throw error;
      if (options.service !== true) throw new UserError(error.key, error.message, { cause: error });
      if (!told) parts.announce(words.t('cli.forgot.waiting', { forgot: saidIn(error, words) }));
      told = true;
      await sleep(FORGOT_POLL_MS, undefined, options.signal && { signal: options.signal });
    }
  }
}

/**
 * A new data folder marked in Redis before the checks at start, which may fail (redis-marker.ts):
 * through the process's client when it has one, else a connection of its own for the moment.
 */
export async function markedFirstUse(
  target: RedisTarget,
  prefix: string,
  installation: ContextParts['installation'],
  client?: Awaited<ReturnType<typeof connectRedis>>,
): Promise<void> {
  if (!installation.created) return;
  if (client !== undefined) {
    await markFirstUse(client, new Keys(prefix), installation);
    return;
  }
  const redis = await connectRedis(target);
  try {
    await markFirstUse(redis, new Keys(prefix), installation);
  } finally {
    redis.disconnect();
  }
}

/** An earlier import stopped on a refused token; the check at start just took this one. */
async function liftEarlierStop(
  ctx: Context,
  announce: (line: string) => void,
  words: Words,
): Promise<void> {
  const stopped = await importStopped(ctx);
  if (stopped === undefined) return;
  await resumeImport(ctx);
  announce(words.t('cli.stop.lifted', { reason: stopSaid(stopped, words) }));
}

/** A forgetful Redis's error in the person's words, when it carries what they need. */
function saidIn(error: KnownError, words: Words): string {
  return error.values === undefined
    ? error.message
    : words.t('cli.error.redis.forgot', error.values);
}
