/**
 * A row job BullMQ gave up on ends with what is known of its row, read as a running job reads
 * it (rows/row-record.ts): its order, wherever that is recorded, is never left out.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { giveUpJob } from '../../src/rows/give-up.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import { sentEntry } from '../../src/store/row-progress.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function rowData(t: TestPipeline, extra: Partial<RowJobData>): RowJobData {
  return {
    connectionId: t.config.connection.id,
    sheetId: 'given-up',
    row: 1,
    line: 2,
    key: null,
    order: validOrder(),
    attachments: [
      { path: 'docs/plan.pdf', bytes: 9 },
      { path: 'docs/photo.jpg', bytes: 9 },
    ],
    ...extra,
  };
}

describe('a row job given up', () => {
  it('dropped back from failed/, is failed with its order and the files still missing', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const data = rowData(t, { existingOrderId: 4321 });
    await giveUpJob(t.ctx, 'rows', { data, attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome).toMatchObject({
      status: 'failed',
      orderId: 4321,
      fileIds: [null, null],
      missingFiles: ['docs/plan.pdf', 'docs/photo.jpg'],
      error: 'the row job gave up: boom',
    });
  });

  it('with its order and a file recorded in Redis, is failed naming the other file', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const me = { sheetId: 'given-up', row: 1 };
    await t.ctx.progress.save(me, {
      orderId: 99,
      inspectionIds: [990],
      fileIds: [5, null],
      resent: [],
    });
    await giveUpJob(t.ctx, 'rows', { data: rowData(t, {}), attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome).toMatchObject({
      status: 'failed',
      orderId: 99,
      inspectionIds: [990],
      fileIds: [5, null],
      missingFiles: ['docs/photo.jpg'],
    });
  });

  it('with its create claimed and never answered, needs review, saying when it left', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const me = { sheetId: 'given-up', row: 1 };
    const sentAt = '2026-11-26T10:00:00.000Z';
    expect(await t.ctx.progress.claim(me, sentEntry('1.x', sentAt))).toBeUndefined();
    await giveUpJob(t.ctx, 'rows', { data: rowData(t, {}), attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome?.status).toBe('needs-review');
    expect(outcome?.error).toContain(`after sending its create at ${sentAt}`);
  });
});
