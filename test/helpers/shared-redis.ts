/**
 * Vitest's global setup for the whole run: one `redis-server` on a free port that every test
 * file shares (through `inject('sharedRedisUrl')`, read by useTestRedis), instead of one started
 * and stopped per file. Key prefixes keep the files apart; nobody flushes it. Not started when
 * REDIS_URL names a Redis (the tests use that one), when no redis-server is on PATH (each file
 * then finds its own), or when only the unit tests run (they need no Redis).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { TestProject } from 'vitest/node';

import { redisServerAvailable, startLocalRedis } from '../../src/redis/local-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared Redis, when this setup started one. */
    sharedRedisUrl: string | undefined;
  }
}

export default async function startSharedRedis(
  project: TestProject,
): Promise<(() => Promise<void>) | undefined> {
  project.provide('sharedRedisUrl', undefined);
  const needsRedis = project.vitest.projects.some((p) => p.name !== 'unit');
  if (process.env.REDIS_URL || !needsRedis || !redisServerAvailable()) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'test-redis-shared-'));
  const server = await startLocalRedis({ dir });
  project.provide('sharedRedisUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
