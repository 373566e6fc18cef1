/**
 * What a row records of a file on its way must not depend on the API's pace: a file is marked as
 * sent (so that a later attempt says it may be on the order twice) only when it is about to
 * leave, never while it still waits for its turn. An attempt that dies in that wait (a killed
 * process: nothing after it runs) leaves the same record whether or not the pace said a turn was
 * free when the step before it ended, and the row resumed says nothing false of its files.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { runRowJob } from '../../src/rows/row-job.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import { sandboxRequests } from '../helpers/api.js';
import { put, tempDir } from '../helpers/files.js';
import { recordTestSheet, type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';
import { rowJobHandle } from '../helpers/row-job.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const KILLED = 'the process was killed while the file waited for its turn';

/**
 * The context with a pace that gives `turns` requests a free turn, then none: the next one
 * waits, and the process dies there. `saysFree` is what it answers when asked, without taking a
 * turn, whether one is free (another row may take it first).
 */
function killedInTheWait(ctx: Context, turns: number, saysFree: boolean): Context {
  let given = 0;
  const pace = Object.assign(Object.create(ctx.pace) as Context['pace'], {
    freeNow: () => saysFree,
    takeFreeTurn: () => (given += 1) <= turns,
    turn: () => Promise.reject(new Error(KILLED)),
  });
  return { ...ctx, pace };
}

/** A row's progress: its order, these file ids, nothing resent, no file on its way. */
function answeredWith(fileIds: Array<number | null>): unknown {
  return {
    kind: 'answered',
    orderId: expect.any(Number) as number,
    inspectionIds: expect.any(Array) as number[],
    fileIds,
    resent: [],
  };
}

async function rowWithFiles(t: TestPipeline, sheetId: string, files: number): Promise<RowJobData> {
  const dir = await tempDir('upload-mark-');
  const names = Array.from({ length: files }, (_, k) => `docs/plan-${k}.pdf`);
  for (const name of names) await put(dir, name, '%PDF plan');
  await recordTestSheet(
    t.ctx.store,
    sheetId,
    await put(dir, 'orders.csv', 'x'),
    t.ctx.settings.sheetsDir,
    t.config.connection.id,
  );
  return {
    connectionId: t.config.connection.id,
    sheetId,
    row: 1,
    line: 2,
    key: null,
    order: validOrder(),
    attachments: names.map((path) => ({ path, bytes: 9 })),
  };
}

describe.each([
  ['a turn was free', true],
  ['no turn was free', false],
])(
  'a row whose process died while a file waited for its turn, when the pace said %s',
  (_, saysFree) => {
    it('after the create: records the order with no file on its way, and ends created', async () => {
      const t = await testPipeline({ workers: false });
      open.push(t);
      const data = await rowWithFiles(t, 'mark-first', 1);
      await expect(
        runRowJob(killedInTheWait(t.ctx, 1, saysFree), rowJobHandle(data, 1)),
      ).rejects.toThrow(KILLED);
      const recorded = await t.ctx.progress.read({ sheetId: 'mark-first', row: 1 });
      // The order, and no file on its way (one file's id not yet known is kept as no id at all).
      expect(recorded).toEqual(answeredWith([]));

      await runRowJob(t.ctx, rowJobHandle(data, 2));
      const [outcome] = await t.ctx.store.outcomes('mark-first', [1]);
      expect(outcome?.status).toBe('created');
      expect(outcome?.error).toBeUndefined();
      const uploads = (await sandboxRequests(t.sandbox.api)).filter(
        (r) => r.path === '/api/files/',
      );
      expect(uploads).toHaveLength(1);
    });

    it('after its first file: records that file and no other on its way, and ends created', async () => {
      const t = await testPipeline({ workers: false });
      open.push(t);
      const data = await rowWithFiles(t, 'mark-second', 2);
      await expect(
        runRowJob(killedInTheWait(t.ctx, 2, saysFree), rowJobHandle(data, 1)),
      ).rejects.toThrow(KILLED);
      const recorded = await t.ctx.progress.read({ sheetId: 'mark-second', row: 1 });
      expect(recorded).toEqual(answeredWith([expect.any(Number) as number, null]));

      await runRowJob(t.ctx, rowJobHandle(data, 2));
      const [outcome] = await t.ctx.store.outcomes('mark-second', [1]);
      expect(outcome?.status).toBe('created');
      expect(outcome?.error).toBeUndefined();
      const uploads = (await sandboxRequests(t.sandbox.api)).filter(
        (r) => r.path === '/api/files/',
      );
      expect(uploads).toHaveLength(2);
    });
  },
);
