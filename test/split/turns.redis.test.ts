/**
 * The turns of an office's rows (src/split/turns.ts): sheets handed on one after the other run
 * one for one, a sheet job resumed from its checkpoint goes on at the front, and a row handed back
 * to wait (its API turn not come, a stop, a retry's backoff) keeps its turn. Real Redis, real
 * BullMQ, no worker but the test's hands.
 */
import { type Job, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';

import { bullConnection } from '../../src/queue/queues.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { LAST_TURN, turnOf } from '../../src/split/turns.js';
import { tempDir } from '../helpers/files.js';
import { recordTestSheet, type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function pipeline(): Promise<TestPipeline> {
  const t = await testPipeline({ workers: false });
  open.push(() => t.close());
  return t;
}

/** Records a sheet of `n` rows (references `<id>-k`) and runs its sheet job. */
async function handOn(t: TestPipeline, sheetId: string, n: number, checkpoint = 0) {
  const rows = Array.from({ length: n }, (_, i) =>
    sheetRow(i + 1, { reference: `${sheetId}-${i + 1}` }),
  );
  const path = await writeCsvSheet(await tempDir('turns-'), `${sheetId}.csv`, rows);
  await recordTestSheet(t.ctx.store, sheetId, path, t.ctx.settings.sheetsDir, t.ctx.connection.id);
  if (checkpoint > 0) {
    await t.ctx.store.markHanding(sheetId);
    await t.ctx.store.update(sheetId, { checkpoint });
  }
  await runSheetJob(t.ctx, sheetId);
}

/** The rows waiting, in the order a worker takes them: `sheet.r<row>`. */
async function order(t: TestPipeline): Promise<string[]> {
  return (await t.ctx.queues.rows.getPrioritized()).map((job) => job.id ?? '');
}

/** A worker of the test's own hands on the office's rows queue. */
function hands(t: TestPipeline): Worker {
  const worker = new Worker(t.ctx.queues.rows.name, undefined, {
    connection: bullConnection(t.ctx.settings.redis),
    prefix: t.ctx.settings.prefix,
  });
  open.push(() => worker.close());
  return worker;
}

describe('turns of the rows of an office', () => {
  it('run a sheet handed on later one for one with the rows already waiting', async () => {
    const t = await pipeline();
    await handOn(t, 'big', 6);
    await handOn(t, 'small', 3);
    expect(await order(t)).toEqual([
      'big.r1',
      'big.r2',
      'small.r1',
      'big.r3',
      'small.r2',
      'big.r4',
      'small.r3',
      'big.r5',
      'big.r6',
    ]);
  });

  it('give a sheet resumed from its checkpoint the next turn for its next row', async () => {
    const t = await pipeline();
    await handOn(t, 'first', 4);
    // Rows 1 to 3 were handed on before a crash (and are done): row 4 goes as a new sheet's first
    // would, right after the row now first, not behind all the others.
    await handOn(t, 'resumed', 6, 3);
    expect(await order(t)).toEqual([
      'first.r1',
      'first.r2',
      'resumed.r4',
      'first.r3',
      'resumed.r5',
      'first.r4',
      'resumed.r6',
    ]);
  });

  it('are kept by a row handed back to wait, no attempt spent', async () => {
    const t = await pipeline();
    await handOn(t, 'a', 3);
    await handOn(t, 'b', 3);
    const worker = hands(t);
    const taken = (await worker.getNextJob('test-token')) as Job | undefined;
    expect(taken?.id).toBe('a.r1');
    // As jobs/back-to-queue.ts hands a row back (a stop, its turn at the API not come yet).
    await taken?.moveToDelayed(Date.now(), 'test-token');
    const next = (await worker.getNextJob('test-token')) as Job | undefined;
    expect(next?.id).toBe('a.r1');
    expect(await order(t)).toEqual(['a.r2', 'b.r1', 'a.r3', 'b.r2', 'b.r3']);
  });

  it('stay within BullMQ’s priorities: never 0 (no priority, before all), never past the last', () => {
    expect(turnOf(-10, 3)).toBe(1);
    expect(turnOf(0, 1)).toBe(1);
    expect(turnOf(LAST_TURN - 2, 5)).toBe(LAST_TURN);
    expect(LAST_TURN).toBe(2 ** 21);
  });
});
