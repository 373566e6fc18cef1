import { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { Outage, reasonText, type Told } from '../outage.js';
import { clusterClient } from './cluster.js';
import { type ClientNeeds, clientOptions } from './options.js';
import type { RedisTarget } from './target.js';
import { REDIS_ANSWER_MS } from '../policy.js';

/** The client `connectRedis` gives, for modules that hold one. */
export type { Redis } from 'ioredis';
/** Where Redis is, and BullMQ's options for it, for modules that make clients of both kinds. */
export type { RedisTarget } from './target.js';
export { bullmqOptions } from './options.js';
export { bullClusterClient } from './cluster.js';

/** What a client is for (options.ts): waiting while Redis is away, batching its commands. */
export type ConnectRedisOptions = ClientNeeds;

/**
 * A connected client (of a Cluster's for a Cluster, cluster.ts); fails (with the URL, never a
 * password) when nothing answers.
 */
export async function connectRedis(
  target: RedisTarget,
  options: ConnectRedisOptions = {},
): Promise<Redis> {
  const redis =
    target.kind === 'cluster'
      ? clusterClient(target, options)
      : new Redis(clientOptions(target, options));
  let last: Error | undefined;
  // Why it could not connect comes as an event; connect() itself may say only "closed".
  const remember = (error: Error) => {
    last = error;
  };
  redis.on('error', remember);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const reason = last ?? (error as Error);
    throw new Error(`Redis at ${target.shown} does not answer: ${reasonText(reason)}`, {
      cause: error,
    });
  } finally {
    redis.off('error', remember);
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
 * Whether an error means Redis is away for now (down, restarting, still loading its data, a
 * Sentinel set between two masters), which is waited out, rather than a fault in what was asked
 * of it. READONLY and UNBLOCKED are a master that became a replica: the client reconnects. A
 * Cluster's own (CLUSTERDOWN, TRYAGAIN, a slot map it cannot read) are a failover under way.
 */
export function isRedisUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  // A Cluster's: no node answers, a slot without a master in a failover, a refused slot map.
  return /^(Connection is closed|LOADING |Stream isn't writeable|All sentinels are unreachable|READONLY |UNBLOCKED |CLUSTERDOWN |TRYAGAIN |None of startup nodes is available|Failed to refresh slots cache|Too many Cluster redirections)/.test(
    error.message,
  );
}

/** Redis away: named by its URL without a password; the work waits for it. */
export function redisOutage(target: RedisTarget, told: Told): Outage {
  return new Outage({
    ...told,
    subject: `Redis at ${target.shown}`,
    meanwhile: 'the work waits for it and goes on once it is back',
    said: { what: 'redis', url: target.shown, meanwhile: 'work' },
  });
}
