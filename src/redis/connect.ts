import { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { redactUrl } from './url.js';

/** A connected client; fails (with the URL, never a password) when nothing answers. */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: true });
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

/** Whether Redis answers now (for /healthz); why not is logged. */
export async function pingRedis(redis: Redis, logger: Logger): Promise<boolean> {
  try {
    await redis.ping();
    return true;
  } catch (error) {
    logger.warn({ err: error }, 'Redis does not answer');
    return false;
  }
}
