/**
 * A process's Redis connections on a Cluster (docs/design.md "Many offices"): its workers share
 * the process's BullMQ client, but each one's blocking wait is a Cluster client of its own, which
 * holds more than one connection. Measured here on a real Cluster, the workers a process runs at
 * once there (`workerCaps`) must still keep it under 64 connections.
 */
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectRedis, type Redis } from '../../src/redis/connect.js';
import { parseRedisUrl } from '../../src/redis/target.js';
import { workerCaps } from '../../src/workers/doorbell.js';
import { startRedisCluster, type TestCluster } from '../helpers/redis-cluster.js';

const WORKERS = 8;
/** A few passing connections: a retention pass's lock, a check at start (test/policy.test.ts). */
const PASSING = 4;

let cluster: TestCluster | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Connections of clients other than the test's own, over every node. */
async function connectionsOn(nodes: TestCluster['nodes']): Promise<number> {
  let count = 0;
  for (const node of nodes) {
    const own = String(await node.client.client('ID'));
    const list = String(await node.client.call('CLIENT', 'LIST'));
    count += list
      .split('\n')
      .filter((line) => /^id=/.test(line) && !line.startsWith(`id=${own} `)).length;
  }
  return count;
}

describe('a process on a Redis Cluster', () => {
  it('runs no more workers at once than keep it under 64 connections', async () => {
    if (cluster === undefined) throw new Error('no Cluster');
    const target = parseRedisUrl(cluster.url);
    // The process's two shared clients, as context.ts opens them.
    const shared: Redis[] = [
      await connectRedis(target, { waitWhileAway: true }),
      await connectRedis(target, { waitWhileAway: true }),
    ];
    const queues: Queue[] = [];
    const workers: Worker[] = [];
    try {
      for (const client of shared) await client.ping();
      const [, bull] = shared;
      if (bull === undefined) throw new Error('no client');
      const before = await connectionsOn(cluster.nodes);
      // Offices on hash tags of their own, spread over the shards, each with a worker that has
      // taken a job (its blocking connection opened).
      for (let office = 0; office < WORKERS; office += 1) {
        const prefix = `{cluster-connections-${office}}`;
        const queue = new Queue('rows', { connection: bull, prefix });
        queues.push(queue);
        const done = new Promise<void>((resolve) => {
          const worker = new Worker('rows', () => Promise.resolve(), { connection: bull, prefix });
          worker.once('completed', () => {
            resolve();
          });
          workers.push(worker);
        });
        await queue.add('row', {});
        await done;
      }
      const perWorker = ((await connectionsOn(cluster.nodes)) - before) / WORKERS;
      expect(perWorker).toBeGreaterThan(0);
      const { maxWorkers } = workerCaps(target);
      expect(before + maxWorkers * perWorker + PASSING).toBeLessThanOrEqual(64);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      for (const queue of queues) {
        await queue.obliterate({ force: true });
        await queue.close();
      }
      for (const client of shared) client.disconnect();
    }
  }, 60_000);
});
