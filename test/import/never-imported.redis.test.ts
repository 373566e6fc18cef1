/**
 * "Imported before" only for content that was imported: a sheet that ended before a row of it
 * was handed on (its private copy lost on its own disk, its job given up) makes no later sheet of
 * the same bytes a duplicate.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { submitSheet } from '../../src/intake/submit.js';
import { startWorkers } from '../../src/workers/start.js';
import { tempDir } from '../helpers/files.js';
import { testPipeline, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

async function threeRows(prefix: string, first: number): Promise<string> {
  const rows = [sheetRow(first), sheetRow(first + 1), sheetRow(first + 2)];
  return writeCsvSheet(await tempDir(prefix), 'orders.csv', rows);
}

describe('content whose earlier sheet imported none of it', () => {
  it('is imported again even when an older version left it registered to that sheet', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const path = await threeRows('lost-', 1301);
      const lost = await submitSheet(t.ctx, path);
      await rm(join(t.ctx.settings.sheetsDir, lost.sheetId), { recursive: true });
      await startWorkers(t.ctx);
      const given = await waitForReport(t.ctx, lost.sheetId);
      expect(given.total).toBe(0);
      const record = await t.ctx.store.get(lost.sheetId);
      expect(record?.error).toMatch(/the sheet job gave up: ENOENT/);
      // As an older version left it: the content still registered to the sheet given up.
      const content = `${t.ctx.connection.id}|${record?.sha256 ?? ''}`;
      await t.ctx.redis.hset(t.ctx.keys.bySha, content, lost.sheetId);

      const again = await t.importSheet(path);
      expect(again.counts).toMatchObject({ created: 3, duplicate: 0 });
      expect(await t.sandbox.api.listOrders()).toHaveLength(3);
      // Imported now: the same bytes once more are duplicates of this import.
      const third = await t.importSheet(path);
      expect(third.counts).toMatchObject({ created: 0, duplicate: 3 });
      expect(await t.sandbox.api.listOrders()).toHaveLength(3);
    } finally {
      await t.close();
    }
  });

  it('is imported by a hot-folder copy queued while that earlier sheet was still waiting', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const path = await threeRows('lost-hot-', 1401);
      const lost = await submitSheet(t.ctx, path);
      await rm(join(t.ctx.settings.sheetsDir, lost.sheetId), { recursive: true });
      // A copy with an id of its own (the hot folder's) waits for the earlier import to end.
      const copy = await submitSheet(t.ctx, path, { sheetId: 'hot-copy-1401' });
      expect((await t.ctx.store.get(copy.sheetId))?.duplicateOf).toBe(lost.sheetId);
      await startWorkers(t.ctx);
      expect((await waitForReport(t.ctx, lost.sheetId)).total).toBe(0);
      const done = await waitForReport(t.ctx, copy.sheetId);
      expect(done.counts).toMatchObject({ created: 3, duplicate: 0 });
      expect((await t.ctx.store.get(copy.sheetId))?.duplicateOf).toBeUndefined();
      expect(await t.sandbox.api.listOrders()).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});
