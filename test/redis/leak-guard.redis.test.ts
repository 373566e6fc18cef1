import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';

import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activeHandles, findLeaks } from '../helpers/leaks.js';
import { deleteKeys, type TestRedis, useTestRedis } from '../helpers/redis.js';

// The guard run after every integration and e2e file (test/helpers/leak-guard.ts), checked here
// on leaks made on purpose, each then ended so that this file leaves nothing behind itself.
const GRACE_MS = 200;

let redis: TestRedis;
beforeAll(async () => {
  redis = await useTestRedis();
});
afterAll(() => redis.cleanup());

async function listening(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('findLeaks', () => {
  it('names a server left listening, and nothing once it is closed', async () => {
    const before = activeHandles();
    const server = await listening();
    const port = (server.address() as { port: number }).port;
    expect(await findLeaks({ before, redises: [], graceMs: GRACE_MS })).toEqual([
      `a server listening on port ${port}`,
    ]);
    await new Promise((resolve) => server.close(resolve));
    expect(await findLeaks({ before, redises: [], graceMs: GRACE_MS })).toEqual([]);
  });

  it('names a child process left running', async () => {
    const before = activeHandles();
    const child: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const leaks = await findLeaks({ before, redises: [], graceMs: GRACE_MS });
      expect(leaks).toContain(`a child process (pid ${child.pid}, ${process.execPath})`);
    } finally {
      child.kill();
      await exited;
    }
    expect(await findLeaks({ before, redises: [], graceMs: GRACE_MS })).toEqual([]);
  });

  it('names a BullMQ worker left connected to Redis', async () => {
    const before = activeHandles();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(`${redis.prefix}-leak`, async () => undefined, {
      connection,
      prefix: redis.prefix,
    });
    await worker.waitUntilReady();
    try {
      const port = new URL(redis.url).port;
      const leaks = await findLeaks({ before, redises: [redis], graceMs: GRACE_MS });
      // A worker holds several connections, counted in one line (and has written keys).
      expect(leaks).toContainEqual(
        expect.stringMatching(`^\\d+ × a connection to Redis at port ${port}$`),
      );
    } finally {
      await worker.close();
      await connection.quit();
    }
    // The keys the worker wrote are the file's to remove, as its cleanup does.
    await deleteKeys(redis.client, `*${redis.prefix}*`);
    expect(await findLeaks({ before, redises: [redis], graceMs: 5_000 })).toEqual([]);
  });

  it('names keys left under a prefix of the file, and only those', async () => {
    const before = activeHandles();
    await redis.client.set(`${redis.prefix}:left`, '1');
    await redis.client.hset(`{${redis.prefix}}:also`, 'f', 'v');
    const neighbour = `test-${randomUUID()}:not-this-file`;
    await redis.client.set(neighbour, '1');
    try {
      const leaks = await findLeaks({ before, redises: [redis], graceMs: GRACE_MS });
      expect(leaks).toEqual([
        expect.stringMatching(`^2 Redis keys holding ${redis.prefix}, such as `),
      ]);
    } finally {
      await redis.client.del(neighbour);
      await deleteKeys(redis.client, `*${redis.prefix}*`);
    }
  });
});
