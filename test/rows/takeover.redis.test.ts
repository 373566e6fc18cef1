import { afterEach, describe, expect, it } from 'vitest';

import { rowJobId } from '../../src/queue/queues.js';
import { RowInterruption } from '../../src/rows/interruption.js';
import { runRowJob } from '../../src/rows/row-job.js';
import { SENDER_WAITS } from '../../src/policy.js';
import { runMigrations } from '../../src/store/migrations/migrations.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import type { RowJobHandle } from '../../src/rows/row-run.js';
import { sandboxRequests } from '../helpers/api.js';
import { put, tempDir } from '../helpers/files.js';
import { recordTestSheet, type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';
import { rowJobHandle } from '../helpers/row-job.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/**
 * A row job as an older version queued it, its progress on the job (`state`), after the upgrade
 * at start-up (store/migrations/, as openStores runs them): as a worker of this version gets it.
 */
async function queuedByOlderVersion(
  t: TestPipeline,
  data: RowJobData & { state: Record<string, unknown> },
  attemptsStarted: number,
): Promise<RowJobHandle> {
  const jobId = rowJobId(data.sheetId, data.row);
  await t.ctx.queues.rows.add('row', data, { jobId });
  // This pipeline's start ran migration 2 before the job was there: as if it started now.
  await t.ctx.redis.hdel(t.ctx.keys.migrations, '2');
  await runMigrations({ redis: t.ctx.redis, keys: t.ctx.keys }, t.ctx.logger);
  const job = await t.ctx.queues.rows.getJob(jobId);
  return rowJobHandle(job?.data as RowJobData, attemptsStarted);
}

describe('one row job run by two workers at once (a stall taken over while the first still runs)', () => {
  it('sends the create once', async () => {
    const t = await testPipeline({ workers: false, sandbox: { faults: { latencyMs: 300 } } });
    open.push(t);
    const data: RowJobData = {
      connectionId: t.config.connection.id,
      sheetId: 'takeover',
      row: 1,
      line: 2,
      key: null,
      order: validOrder(),
      attachments: [],
    };
    // A process sends one request at a time until it has heard an answer (pace.ts): one is
    // heard first, so that both jobs reach the create's claim together.
    await t.ctx.api.getOrder(1).catch((error: unknown) => error);
    const results = await Promise.allSettled([
      runRowJob(t.ctx, rowJobHandle(data)),
      runRowJob(t.ctx, rowJobHandle(data)),
    ]);
    const finished = (await t.ctx.store.outcomes('takeover', [1])).map((o) => o?.status);
    const creates = (await sandboxRequests(t.sandbox.api)).filter((r) => r.method === 'POST');
    expect(creates).toHaveLength(1);
    expect(finished).toEqual(['created']);
    const waiting = results.find((r) => r.status === 'rejected');
    expect(waiting?.reason).toBeInstanceOf(RowInterruption);
  });
});

describe.each([
  ['in Redis, as this version records it', false],
  ['on its job, as an older version kept it', true],
])(
  'a row resumed after its process stopped in the middle of an upload, its progress %s',
  (_, onJob) => {
    it('sends the file again and says it may be on the order twice', async () => {
      const t = await testPipeline({ workers: false });
      open.push(t);
      const dir = await tempDir('mid-upload-');
      const plan = await put(dir, 'docs/plan.pdf', '%PDF plan');
      await recordTestSheet(
        t.ctx.store,
        'mid-upload',
        await put(dir, 'orders.csv', 'x'),
        t.ctx.settings.sheetsDir,
        t.config.connection.id,
      );
      const order = await t.config.api.createOrder(validOrder(), new AbortController().signal);
      // As the stopped process left it: the order made, the upload sent, no answer kept.
      const state = {
        orderId: order.id,
        inspectionIds: [],
        fileIds: [null],
        resent: [],
        uploading: 0,
      };
      if (!onJob) await t.ctx.progress.save({ sheetId: 'mid-upload', row: 1 }, state);
      const data: RowJobData = {
        connectionId: t.config.connection.id,
        sheetId: 'mid-upload',
        row: 1,
        line: 2,
        key: null,
        order: validOrder(),
        attachments: [{ path: 'docs/plan.pdf', absolute: plan, bytes: 9 }],
      };
      const handle = onJob
        ? await queuedByOlderVersion(t, { ...data, state }, 2)
        : rowJobHandle(data, 2);
      await runRowJob(t.ctx, handle);
      const outcomes = await t.ctx.store.outcomes('mid-upload', [1]);
      expect(outcomes).toEqual([
        expect.objectContaining({
          status: 'created',
          error: 'sent again after an unclear answer, so possibly attached twice: docs/plan.pdf.',
        }),
      ]);
    });
  },
);

describe('a row whose job an older version left with its create sent and no answer', () => {
  it('never sends the create again: it waits for the sender, then leaves it to a person', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const sentAt = '2026-11-26T10:00:00.000Z';
    const handle = await queuedByOlderVersion(
      t,
      {
        connectionId: t.config.connection.id,
        sheetId: 'older-intent',
        row: 1,
        line: 2,
        key: null,
        order: validOrder(),
        attachments: [],
        state: { intent: { sentAt, attempt: 1 } },
      },
      2,
    );
    for (let wait = 1; wait <= SENDER_WAITS; wait++) {
      await expect(runRowJob(t.ctx, handle)).rejects.toBeInstanceOf(RowInterruption);
    }
    await runRowJob(t.ctx, handle);
    const [outcome] = await t.ctx.store.outcomes('older-intent', [1]);
    expect(outcome?.status).toBe('needs-review');
    expect(outcome?.error).toContain(`the order was sent at 26 Nov 2026, 11:00 `);
    const creates = (await sandboxRequests(t.sandbox.api)).filter((r) => r.method === 'POST');
    expect(creates).toHaveLength(0);
  });
});
