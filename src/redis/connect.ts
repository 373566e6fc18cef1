import { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { Outage, reasonText, type Told } from '../outage.js';
import { clusterClient, isClusterUrl } from './cluster.js';
import { redactUrl } from './url.js';
import { REDIS_ANSWER_MS, REDIS_COMMAND_RETRIES } from '../policy.js';

/** The client `connectRedis` gives, for modules that hold one. */
export type { Redis } from 'ioredis';

export interface ConnectRedisOptions {
  /**
   * Commands wait while Redis is away (a restart) and go on when it is back, instead of failing
   * after a few reconnections: what a worker in the middle of a row needs. Whoever sets it must
   * bound its own waits (see pingRedis).
   * @defaultValue false
   */
  waitWhileAway?: boolean;
  /**
   * Commands issued in the same turn of the event loop go out in one write (ioredis'
   * auto-pipelining): a process with many rows in flight sends one batch, not one write each.
   * @defaultValue false
   */
  batched?: boolean;
}

/**
 * A connected client (of a Cluster for `redis+cluster://`, cluster.ts); fails (with the URL, never
 * a password) when nothing answers.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis> {
  const redis = isClusterUrl(url)
    ? clusterClient(url, options)
    : new Redis(url, {
        maxRetriesPerRequest: options.waitWhileAway ? null : REDIS_COMMAND_RETRIES,
        lazyConnect: true,
        enableAutoPipelining: options.batched ?? false,
      });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis at ${redactUrl(url)} does not answer: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return redis;
}

/** Whether Redis answers now, within `timeoutMs` (for /healthz); why not is logged. */
export async function pingRedis(
  redis: Redis,
  logger: Logger,
  timeoutMs = REDIS_ANSWER_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([redis.ping(), late]);
    return true;
  } catch (error) {
    // An outage is told once where it is noticed; a health check asks often.
    logger.debug({ reason: reasonText(error) }, 'Redis does not answer');
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Socket failures of a client that cannot reach Redis (as opposed to Redis refusing a command). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether an error means Redis is away for now (down, restarting, still loading its data), which
 * is waited out, rather than a fault in what was asked of it.
 */
export function isRedisUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  // A Cluster's: no node answers, a slot without a master in a failover, a refused slot map.
  return /^(Connection is closed|LOADING |Stream isn't writeable|CLUSTERDOWN |TRYAGAIN |None of startup nodes is available|Failed to refresh slots cache|Too many Cluster redirections)/.test(
    error.message,
  );
}

/** Redis away: named by its URL without a password; the work waits for it. */
export function redisOutage(redisUrl: string, told: Told): Outage {
  return new Outage({
    ...told,
    subject: `Redis at ${redactUrl(redisUrl)}`,
    meanwhile: 'the work waits for it and goes on once it is back',
    said: { what: 'redis', url: redactUrl(redisUrl), meanwhile: 'work' },
  });
}
