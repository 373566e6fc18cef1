import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startLocalRedis } from '../../src/redis/local-server.js';
import { deleteKeys, type TestRedis, useTestRedis } from '../helpers/redis.js';

describe('useTestRedis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await useTestRedis();
  });
  afterAll(() => redis.cleanup());

  it('gives a Redis that answers, with a prefix of its own', async () => {
    expect(await redis.client.ping()).toBe('PONG');
    expect(redis.prefix).toMatch(/^test-[0-9a-f-]{36}$/);
    const other = await useTestRedis();
    try {
      expect(other.prefix).not.toBe(redis.prefix);
    } finally {
      await other.cleanup();
    }
  });

  it('deletes the keys holding a prefix, as a prefix or a hash tag, and no others', async () => {
    const p = `test-${randomUUID()}`;
    const neighbour = `test-${randomUUID()}:stays`;
    await redis.client.set(`${p}:a`, '1');
    await redis.client.hset(`{${p}}:b`, 'f', 'v');
    await redis.client.set(neighbour, 'yes');
    expect(await deleteKeys(redis.client, `*${p}*`)).toBe(2);
    expect(await redis.client.exists(`${p}:a`, `{${p}}:b`)).toBe(0);
    expect(await redis.client.get(neighbour)).toBe('yes');
    await redis.client.del(neighbour);
  });

  it('deletes more keys than one SCAN page holds', async () => {
    const pipeline = redis.client.pipeline();
    for (let i = 0; i < 1200; i++) pipeline.set(`${redis.prefix}:many:${i}`, i);
    await pipeline.exec();
    expect(await deleteKeys(redis.client, `${redis.prefix}:many:*`)).toBe(1200);
  });

  it('leaves nothing of its own behind when cleaned up', async () => {
    const mine = await useTestRedis();
    const observer = new Redis(mine.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    const observed: Error[] = [];
    observer.on('error', (error: Error) => observed.push(error));
    await mine.client.set(`${mine.prefix}:a`, '1');
    await mine.cleanup();
    if (mine.source === 'REDIS_URL' || mine.source === 'shared') {
      // A shared server stays up: the keys must be gone from it.
      expect(await observer.exists(`${mine.prefix}:a`)).toBe(0);
      await observer.quit();
    } else {
      // A private server is stopped with its keys.
      await expect(observer.connect()).rejects.toThrow();
      observer.disconnect();
      expect(observed.map((e) => e.message).join()).toMatch(/ECONNREFUSED/);
    }
  });
});

describe('startLocalRedis', () => {
  it('starts a private server that keeps data across a restart with AOF on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aof-'));
    try {
      const first = await startLocalRedis({ dir, appendOnly: true });
      const client = new Redis(first.url);
      await client.set('kept', 'yes');
      await client.quit();
      await first.stop();

      const second = await startLocalRedis({ dir, appendOnly: true, port: first.port });
      const again = new Redis(second.url);
      expect(await again.get('kept')).toBe('yes');
      await again.quit();
      await second.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says why when the server cannot start', async () => {
    await expect(startLocalRedis({ binary: '/nonexistent/redis-server' })).rejects.toThrow(
      /ENOENT/,
    );
  });
});
