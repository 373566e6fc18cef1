/**
 * The doorbell (src/workers/doorbell.ts): an office's worker runs only while its queue has work —
 * started at once for a job this process adds, at the next look for one another process added or
 * a job a dead process left active, closed once its queue is empty — and no more workers run at
 * once than the process's slots, offices waiting taking turns. Real Redis, real BullMQ workers;
 * short looks and turns so that the tests stay short.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';

import { bullConnection, type OfficeQueue } from '../../src/queue/queues.js';
import { Doorbell, type OnDemand } from '../../src/workers/doorbell.js';
import { eventually } from '../helpers/eventually.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';

const pipelines: TestPipeline[] = [];
const doorbells: Doorbell[] = [];
afterEach(async () => {
  for (const bell of doorbells.splice(0)) bell.close();
  for (const t of pipelines.splice(0)) await t.close();
});

async function office(name: string): Promise<TestPipeline> {
  const t = await testPipeline({ workers: false, connectionName: name });
  pipelines.push(t);
  return t;
}

function doorbell(options: Partial<ConstructorParameters<typeof Doorbell>[0]> = {}): Doorbell {
  const bell = new Doorbell({
    logger: pipelines[0]?.ctx.logger ?? (undefined as never),
    everyMs: 50,
    sweepMs: 200,
    idleMs: 300,
    ...options,
  });
  doorbells.push(bell);
  return bell;
}

/** What the work of the office's notify queue did: jobs done, and how many ran at once at most. */
interface Done {
  ids: string[];
  running: number;
  most: number;
}

/** A worker of the office's notify queue whose job takes `ms` (work, not a wait for a state). */
function notifyWorker(t: TestPipeline, done: Done, ms = 0): OnDemand {
  const queue: OfficeQueue = t.ctx.queues.notify;
  return {
    kind: 'notify',
    queue,
    make: () =>
      new Worker(
        queue.name,
        async (job: Job) => {
          done.running += 1;
          done.most = Math.max(done.most, done.running);
          await new Promise((resolve) => setTimeout(resolve, ms));
          done.ids.push(String(job.id));
          done.running -= 1;
        },
        {
          connection: t.ctx.clients.bull,
          prefix: t.ctx.settings.prefix,
          lockDuration: t.ctx.settings.lockMs,
          stalledInterval: t.ctx.settings.lockMs / 2,
        },
      ),
  };
}

/** A queue of another process: it rings no bell of this one. */
function otherProcess(t: TestPipeline): Queue {
  return new Queue(t.ctx.queues.notify.name, {
    connection: bullConnection(t.ctx.settings.redis),
    prefix: t.ctx.settings.prefix,
  });
}

describe('the doorbell', () => {
  it('runs no worker for an empty queue, one for a job added here or elsewhere, and closes it once idle', async () => {
    const t = await office('gent');
    const bell = doorbell();
    const done: Done = { ids: [], running: 0, most: 0 };
    bell.add(t.ctx, [notifyWorker(t, done)]);
    expect(bell.running).toBe(0);

    await t.ctx.queues.notify.add('n', {}, { jobId: 'here' });
    // Rung at once: started before any look.
    expect(bell.running).toBe(1);
    await eventually(
      () => (done.ids.includes('here') ? true : undefined),
      () => `done: ${done.ids.join(', ')}`,
    );
    await eventually(
      () => (bell.running === 0 && t.ctx.workers.length === 0 ? true : undefined),
      () => `still running: ${bell.running}`,
    );

    const other = otherProcess(t);
    try {
      await other.add('n', {}, { jobId: 'elsewhere' });
      await eventually(
        () => (done.ids.includes('elsewhere') ? true : undefined),
        () => `done: ${done.ids.join(', ')}`,
      );
    } finally {
      await other.close();
    }
    await eventually(
      () => (bell.running === 0 ? true : undefined),
      () => `still running: ${bell.running}`,
    );
  });

  it('starts a worker for a job a dead process left active, which its stalled check resumes', async () => {
    const t = await office('brugge');
    const other = otherProcess(t);
    await other.add('n', {}, { jobId: 'left-active' });
    // A process takes the job and dies: its lock lapses, the job stays in the active list. (Its
    // id is no key name of the queue's own: a job `stalled` would be the queue's stalled set.)
    const dead = new Worker(other.name, undefined, {
      connection: bullConnection(t.ctx.settings.redis),
      prefix: t.ctx.settings.prefix,
      lockDuration: 500,
    });
    expect(((await dead.getNextJob('dead-token')) as Job | undefined)?.id).toBe('left-active');
    await dead.close(true);
    await other.close();

    const done: Done = { ids: [], running: 0, most: 0 };
    const bell = doorbell({ idleMs: 10_000 });
    bell.add(t.ctx, [notifyWorker(t, done)]);
    await eventually(
      () => (done.ids.includes('left-active') ? true : undefined),
      () => `not resumed; running: ${bell.running}`,
      20_000,
    );
  });

  it('runs no more workers at once than its slots, and offices take turns', async () => {
    const offices = [await office('a'), await office('b'), await office('c')];
    const bell = doorbell({ maxWorkers: 1, turnMs: 100, idleMs: 100 });
    const done: Done = { ids: [], running: 0, most: 0 };
    for (const t of offices) bell.add(t.ctx, [notifyWorker(t, done, 20)]);
    const [a, b, c] = offices as [TestPipeline, TestPipeline, TestPipeline];
    // Office a's long queue first, then one job each for b and c.
    await a.ctx.queues.notify.addBulk(
      Array.from({ length: 40 }, (_, i) => ({ name: 'n', data: {}, opts: { jobId: `a${i}` } })),
    );
    await b.ctx.queues.notify.add('n', {}, { jobId: 'b0' });
    await c.ctx.queues.notify.add('n', {}, { jobId: 'c0' });
    await eventually(
      () => (done.ids.length === 42 ? true : undefined),
      () => `done ${done.ids.length}: ${done.ids.join(', ')}`,
      60_000,
    );
    expect(done.most).toBe(1);
    // b and c had their turns before a's queue was through.
    expect(done.ids.indexOf('b0')).toBeLessThan(done.ids.indexOf('a39'));
    expect(done.ids.indexOf('c0')).toBeLessThan(done.ids.indexOf('a39'));
  });
});
