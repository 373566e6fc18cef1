/**
 * A `redis-server` of the benchmark's own, on a free port, saving nothing: what it spends on CPU
 * and memory is the importer's alone, never another process's load on a shared Redis, and
 * nothing the benchmark writes can reach anyone else's data. Its keys are removed (SCAN + UNLINK
 * of the benchmark's prefix) before it is stopped, whether the measure ended well or not.
 */
import type { Redis } from 'ioredis';

import { connectRedis } from '../src/redis/connect.js';
import { startLocalRedis } from '../src/redis/local-server.js';
import { parseRedisUrl } from '../src/redis/target.js';
import { onCleanup } from './cleanup.js';

export interface PrivateRedis {
  url: string;
  stop: () => Promise<void>;
}

/** Every key a benchmark writes has this in its prefix (`{bench-…}`). */
export const BENCH_TAG = 'bench-';

/** Starts the server (data folder `dir`, which holds nothing since nothing is saved). */
export async function startPrivateRedis(dir: string): Promise<PrivateRedis> {
  const server = await startLocalRedis({ dir, appendOnly: false });
  const running = () => server.process.exitCode === null && server.process.signalCode === null;
  const stop = onCleanup(async () => {
    try {
      await removeKeys(server.url, BENCH_TAG);
    } catch (error) {
      // Ctrl-C reaches every process of the terminal: a server that went with it holds nothing.
      if (running()) throw error;
    } finally {
      await server.stop();
    }
  });
  return { url: server.url, stop };
}

/** The Redis of the environment (REDIS_URL), for a run not given a private one. */
export const benchRedisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Removes every key whose name holds `tag`, a SCAN page at a time (never a FLUSH). */
export async function removeKeys(url: string, tag: string): Promise<void> {
  // REDIS_URL in any of its forms (a Sentinel set's too), as the importer reads it.
  const redis = await connectRedis(parseRedisUrl(url));
  // Its errors come out of the commands below; the event would only repeat them.
  redis.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${tag}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The CPU seconds the server has used (user and system), from INFO. */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return infoNumber(info, 'used_cpu_user') + infoNumber(info, 'used_cpu_sys');
}

/** The bytes the server's allocator holds for data, from INFO. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  return infoNumber(await redis.info('memory'), 'used_memory');
}

function infoNumber(info: string, field: string): number {
  const match = new RegExp(`^${field}:([0-9.]+)`, 'm').exec(info);
  if (!match?.[1]) throw new Error(`INFO has no ${field}`);
  return Number(match[1]);
}
