/**
 * A job of another connection found in this connection's queues (moved or forged in Redis) is
 * neither sent nor allowed to settle the other connection's rows or sheet.
 */
import { Job, type Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const OTHER = 'ffffffffffffffff';
const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function failedReason(queue: Queue, job: Job, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await job.getState();
    if (state === 'failed') {
      const again: Job | undefined = await Job.fromId(queue, job.id ?? '');
      return again?.failedReason ?? '';
    }
    if (state === 'completed') throw new Error('the foreign job completed');
    if (Date.now() > deadline) throw new Error(`still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a job of another connection in this connection’s queues', () => {
  it('is a row job that is never sent and settles nothing', async () => {
    const t = await testPipeline();
    open.push(t);
    const job = await t.ctx.queues.rows.add('row', {
      connectionId: OTHER,
      sheetId: 'forged',
      row: 1,
      key: null,
      order: validOrder(),
      attachments: [],
    });
    expect(await failedReason(t.ctx.queues.rows, job)).toMatch(
      /belongs to connection ffffffffffffffff/,
    );
    expect(await t.sandbox.api.listOrders()).toHaveLength(0);
    expect(await t.ctx.store.isFinal('forged', 1)).toBe(false);
  });

  it('is a sheet job that reads nothing and does not close the other connection’s sheet', async () => {
    const t = await testPipeline();
    open.push(t);
    const path = await writeCsvSheet(await tempDir('foreign-'), 'theirs.csv', [sheetRow(1)]);
    await t.ctx.store.create({
      sheetId: 'theirs',
      path,
      name: 'theirs.csv',
      sha256: 'x',
      connectionId: OTHER,
      apiBaseUrl: 'http://elsewhere',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
    });
    const job = await t.ctx.queues.sheets.add('sheet', { sheetId: 'theirs' });
    expect(await failedReason(t.ctx.queues.sheets, job)).toMatch(
      /belongs to connection ffffffffffffffff/,
    );
    const sheet = await t.ctx.store.get('theirs');
    expect(sheet?.state).toBe('queued');
    expect(sheet?.total).toBeUndefined();
    expect(await t.ctx.queues.rows.getJobCounts()).toMatchObject({
      waiting: 0,
      prioritized: 0,
      active: 0,
    });
    expect(await t.sandbox.api.listOrders()).toHaveLength(0);
  });
});
