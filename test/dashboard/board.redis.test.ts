import type { Redis } from 'ioredis';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let queue: Queue;
let dashboard: RunningDashboard;
const ids = { delayed: '', failed: '', waiting: '' };

beforeAll(async () => {
  redis = await useTestRedis();
  const connection = { url: redis.url, maxRetriesPerRequest: null };
  const prefix = `{${redis.prefix}}`;
  queue = new Queue('rows', { connection, prefix });
  // One job in each state a write route acts on: failed (retry), delayed (promote), waiting.
  const failing = await queue.add('row', { files: ['plan.pdf'] }, { attempts: 1 });
  const worker = new Worker(
    'rows',
    async () => {
      throw new Error('refused by the test');
    },
    { connection, prefix },
  );
  await new Promise<void>((resolve) =>
    worker.once('failed', () => {
      resolve();
    }),
  );
  await worker.close();
  ids.failed = failing.id ?? '';
  ids.delayed = (await queue.add('row', { files: ['a.pdf'] }, { delay: 3_600_000 })).id ?? '';
  await queue.pause();
  ids.waiting = (await queue.add('row', { files: ['b.pdf'] })).id ?? '';
  await queue.resume();
  await queue.upsertJobScheduler('nightly', { every: 3_600_000 }, { name: 'scan', data: {} });
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve([]),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [queue],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(async () => {
  await dashboard.close();
  await queue.close();
  await redis.cleanup();
});

/** Every key of this test with its content: what "unchanged in Redis" means here. */
async function snapshot(client: Redis, prefix: string): Promise<Record<string, unknown>> {
  const keys = (await client.keys(`*${prefix}*`)).sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const type = await client.type(key);
    if (type === 'string') out[key] = await client.get(key);
    else if (type === 'hash') out[key] = await client.hgetall(key);
    else if (type === 'list') out[key] = await client.lrange(key, 0, -1);
    else if (type === 'set') out[key] = (await client.smembers(key)).sort();
    else if (type === 'zset') out[key] = await client.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'stream') out[key] = await client.xlen(key);
    else out[key] = type;
  }
  return out;
}

/** bull-board's routes that change something, as its API declares them. */
function writeRoutes(): Array<[string, string, unknown?]> {
  const q = '/queues/api/queues/rows';
  // Job by job first, then whole queues, the most destructive last: on a board that accepts
  // writes, each of them would then act on something.
  return [
    ['PUT', `${q}/${ids.failed}/retry`],
    ['PUT', `${q}/${ids.delayed}/promote`],
    ['PATCH', `${q}/${ids.delayed}/update-data`, { jobData: { files: ['/etc/shadow'] } }],
    ['PATCH', `${q}/${ids.delayed}/delay`, { delay: 1 }],
    ['PATCH', `${q}/${ids.waiting}/priority`, { priority: 3 }],
    ['PUT', `${q}/${ids.waiting}/remove-unprocessed-children`],
    ['PUT', `${q}/${ids.waiting}/clean`],
    ['DELETE', `${q}/${ids.waiting}`],
    ['POST', `${q}/add`, { name: 'row', data: { files: ['/etc/passwd'] }, options: {} }],
    ['PUT', `${q}/retry/failed`],
    ['PUT', `${q}/retry/completed`],
    ['PUT', `${q}/promote`],
    ['PUT', `${q}/pause`],
    ['PUT', `${q}/resume`],
    ['PUT', '/queues/api/queues/pause'],
    ['PUT', '/queues/api/queues/resume'],
    ['PUT', `${q}/concurrency`, { concurrency: 1 }],
    ['PUT', `${q}/rate-limit`, { max: 1, duration: 1000 }],
    ['PUT', `${q}/rate-limit/release`],
    ['PATCH', `${q}/job-schedulers/nightly`, { every: 1000 }],
    ['PUT', `${q}/job-schedulers/nightly/run`],
    ['PUT', `${q}/job-schedulers/nightly/remove`],
    ['POST', '/queues/api/metrics/history/purge', {}],
    ['PUT', `${q}/clean/delayed`],
    ['PUT', `${q}/clean/failed`],
    ['PUT', `${q}/empty`],
    ['PUT', `${q}/obliterate`, {}],
  ];
}

describe("the dashboard's queues (bull-board)", () => {
  it('refuses every route that would change a queue or a job, and nothing changes in Redis', async () => {
    const before = await snapshot(redis.client, redis.prefix);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    const answers: string[] = [];
    for (const [method, path, body] of writeRoutes()) {
      const answer = await fetch(`${dashboard.url}${path}`, {
        method,
        ...(body !== undefined && {
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
      });
      await answer.arrayBuffer();
      answers.push(`${method} ${path} ${answer.status}`);
    }
    expect(answers.filter((line) => !/ 4\d\d$/.test(line))).toEqual([]);
    expect(await snapshot(redis.client, redis.prefix)).toEqual(before);
    expect(await queue.isPaused()).toBe(false);
  });

  it('still shows the queues and their jobs', async () => {
    const answer = await fetch(
      `${dashboard.url}/queues/api/queues?activeQueue=rows&status=delayed`,
    );
    expect(answer.status).toBe(200);
    const { queues } = (await answer.json()) as {
      queues: Array<{ name: string; readOnlyMode: boolean; jobs: Array<{ id: string }> }>;
    };
    expect(queues.map((q) => [q.name, q.readOnlyMode])).toEqual([['rows', true]]);
    expect(queues[0]?.jobs.map((j) => j.id)).toEqual([ids.delayed]);
    const page = await fetch(`${dashboard.url}/queues`);
    expect(page.status).toBe(200);
  });
});
