/**
 * A process's context opened where it may work: in a Redis that still has this installation's
 * data (docs/design.md §3, "A Redis that forgot"), with an earlier stop lifted once the API took
 * the token again.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { type Context, type ContextParts, openContext } from '../context.js';
import { connectRedis } from '../redis/connect.js';
import { importStopped, resumeImport } from '../rows/stop-import.js';
import { Keys } from '../store/keys.js';
import { markFirstUse } from '../store/redis-marker.js';
import { isKnown, UserError } from '../errors.js';
import { FORGOT_POLL_MS } from '../policy.js';

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
  for (;;) {
    try {
      const ctx = await openContext(parts);
      await liftEarlierStop(ctx, parts.announce);
      return ctx;
    } catch (error) {
      if (!isKnown(error, 'redis.forgot')) throw error;
      if (options.service !== true) throw new UserError(error.key, error.message, { cause: error });
      if (!told)
        parts.announce(`${error.message} Waiting: sheets stay in the inbox, no row is worked.`);
      told = true;
      await sleep(FORGOT_POLL_MS, undefined, options.signal && { signal: options.signal });
    }
  }
}

/** A new data folder marked in Redis before the checks at start, which may fail (redis-marker.ts). */
export async function markedFirstUse(
  url: string,
  prefix: string,
  installation: ContextParts['installation'],
): Promise<void> {
  if (!installation.created) return;
  const redis = await connectRedis(url);
  try {
    await markFirstUse(redis, new Keys(prefix), installation);
  } finally {
    redis.disconnect();
  }
}

/** An earlier import stopped on a refused token; the check at start just took this one. */
async function liftEarlierStop(ctx: Context, announce: (line: string) => void): Promise<void> {
  const stopped = await importStopped(ctx);
  if (stopped === undefined) return;
  await resumeImport(ctx);
  announce(`An earlier stop (${stopped}) is lifted: the API takes the token now.`);
}
