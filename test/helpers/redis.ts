import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { inject } from 'vitest';

import { redisServerAvailable, startLocalRedis } from '../../src/redis/local-server.js';
import type { UsedRedis } from './leaks.js';

// Every Redis and prefix this test file was given (each file loads its own copy of this module),
// for test/helpers/leak-guard.ts to check that none of its keys or connections stay behind.
const given: UsedRedis[] = [];

/** The Redis servers and prefixes useTestRedis gave this test file. */
export function redisesGiven(): readonly UsedRedis[] {
  return given;
}

/** A Redis for one test file: its own key prefix, and only its own keys removed afterwards. */
export interface TestRedis {
  url: string;
  /** Every key the test writes contains this (`test-<uuid>`), as a prefix or a `{hash tag}`. */
  prefix: string;
  /** Where it came from: REDIS_URL, the run's shared server, a private one, or a container. */
  source: 'REDIS_URL' | 'shared' | 'redis-server' | 'testcontainers';
  client: Redis;
  cleanup(): Promise<void>;
}

/**
 * REDIS_URL when set (it must answer); else the run's shared `redis-server` (test/helpers/
 * shared-redis.ts); else a private one on a free port; else, on a machine with Docker, a
 * container through the optional `@testcontainers/redis` package. A test that stops or restarts
 * Redis starts its own with startLocalRedis instead.
 */
export async function useTestRedis(): Promise<TestRedis> {
  const prefix = `test-${randomUUID()}`;
  const fromEnv = process.env.REDIS_URL;
  const shared = inject('sharedRedisUrl');
  let url: string;
  let source: TestRedis['source'];
  let stopServer: () => Promise<void> = async () => undefined;
  if (fromEnv) {
    url = fromEnv;
    source = 'REDIS_URL';
  } else if (shared) {
    url = shared;
    source = 'shared';
  } else if (redisServerAvailable()) {
    const dir = await mkdtemp(join(tmpdir(), 'test-redis-'));
    const server = await startLocalRedis({ dir });
    url = server.url;
    source = 'redis-server';
    stopServer = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  } else {
    const container = await startContainer();
    url = container.url;
    source = 'testcontainers';
    stopServer = container.stop;
  }
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    await stopServer();
    throw new Error(
      `Redis at ${url} (from ${source}) does not answer: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  given.push({ url, prefix });
  return {
    url,
    prefix,
    source,
    client,
    cleanup: async () => {
      await deleteKeys(client, `*${prefix}*`);
      await client.quit();
      await stopServer();
    },
  };
}

/** Removes the keys matching `pattern`, a SCAN page at a time; never FLUSHALL on a shared server. */
export async function deleteKeys(client: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await client.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

interface StartedContainer {
  url: string;
  stop: () => Promise<void>;
}

async function startContainer(): Promise<StartedContainer> {
  // Optional on purpose: only laptops with Docker install it; this machine has no Docker engine.
  const moduleName = '@testcontainers/redis';
  let mod: {
    RedisContainer: new (image: string) => {
      start(): Promise<{ getConnectionUrl(): string; stop(): Promise<unknown> }>;
    };
  };
  try {
    mod = (await import(moduleName)) as typeof mod;
  } catch (error) {
    throw new Error(
      'No Redis for the tests: set REDIS_URL, put redis-server on PATH, or (with Docker) `npm i -D @testcontainers/redis`.',
      { cause: error },
    );
  }
  const started = await new mod.RedisContainer('redis:7').start();
  return {
    url: started.getConnectionUrl(),
    stop: async () => {
      await started.stop();
    },
  };
}
