/**
 * A worker the doorbell closes (idle, or its turn over) while its blocking connection waits to
 * reconnect after a Redis restart: ioredis drops that try when told to disconnect and never says
 * the connection ended, so a graceful close would wait for ever, its slot never freed
 * (workers/worker-slots.ts). `closeWorker` waits briefly for the connection, then closes at once.
 */
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { connectRedis, type Redis } from '../../src/redis/connect.js';
import { parseRedisUrl } from '../../src/redis/target.js';
import { workerOptions } from '../../src/queue/queues.js';
import { closeWorker } from '../../src/workers/stop.js';
import { eventually } from '../helpers/eventually.js';
import { type RedisProcess, startRedisServer } from '../helpers/redis-servers.js';

const undo: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

describe('closing a worker whose connection is reconnecting', () => {
  it('ends within seconds, Redis back or not', async () => {
    let server: RedisProcess = await startRedisServer();
    undo.push(() => server.stop());
    const { port } = server;
    const shared: Redis = await connectRedis(parseRedisUrl(`redis://127.0.0.1:${port}`), {
      waitWhileAway: true,
    });
    undo.push(() => {
      shared.disconnect();
    });
    const queue = new Queue('rows', { connection: shared, prefix: '{close}' });
    undo.push(() => queue.close());
    const worker = new Worker(
      'rows',
      () => Promise.resolve(),
      workerOptions({ prefix: '{close}', lockMs: 30_000 }, 1, shared),
    );
    undo.push(() => worker.close(true));
    worker.on('error', () => undefined); // Redis is stopped on purpose
    const done = new Promise((resolve) => worker.once('completed', resolve));
    await queue.add('row', {});
    await done;
    const blocking = await worker.backend.blockingClient;
    if (blocking === undefined) throw new Error('no blocking connection');
    await server.kill();
    await eventually(
      () => blocking.status === 'reconnecting' || undefined,
      () => `the blocking connection is ${blocking.status}`,
      15_000,
    );
    const closed = closeWorker(worker, pino({ level: 'silent' })).then(() => 'closed' as const);
    server = await startRedisServer({ port });
    const late = new Promise<'late'>((resolve) => {
      setTimeout(() => {
        resolve('late');
      }, 20_000).unref();
    });
    expect(await Promise.race([closed, late])).toBe('closed');
  }, 60_000);
});
