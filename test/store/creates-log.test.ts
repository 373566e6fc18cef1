/**
 * The record of creates (store/creates-log.ts) as one process writes it: a file per sheet kept
 * open while lines come, each line written by the time its promise resolves, lines that come
 * together written together, in the order they came.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CreatesLog, readCreates } from '../../src/store/creates-log.js';
import { tempDir } from '../helpers/files.js';

const sent = (row: number) => ({
  connectionId: 'c1',
  sheetId: '20261127-101500-abcdef',
  row,
  key: `key-${row}`,
  sentAt: '2026-11-27T10:15:00.000Z',
});

describe('CreatesLog', () => {
  it('has every line on disk once its promise resolves, however many come at once', async () => {
    const dir = join(await tempDir('creates-log-'), 'creates');
    const log = new CreatesLog(dir);
    try {
      await log.sent(sent(1));
      expect((await readCreates(dir, sent(1).sheetId))?.creates.rows).toHaveLength(1);
      const rows = Array.from({ length: 500 }, (_, i) => i + 2);
      await Promise.all(rows.map((row) => log.sent(sent(row))));
      await Promise.all(rows.map((row) => log.answered(sent(row).sheetId, row, 1000 + row)));
      await log.released(sent(1).sheetId, 1);
      const read = await readCreates(dir, sent(1).sheetId);
      expect(read?.skipped).toBe(0);
      expect(read?.creates.connectionId).toBe('c1');
      expect(read?.creates.rows.map((r) => r.row)).toEqual([1, ...rows]);
      expect(read?.creates.rows[0]?.released).toBe(true);
      expect(read?.creates.rows.slice(1).every((r) => r.orderId === 1000 + r.row)).toBe(true);
    } finally {
      await log.close();
    }
  });

  it('makes its folder again when it was removed between two lines', async () => {
    const dir = join(await tempDir('creates-log-'), 'creates');
    const log = new CreatesLog(dir, 0);
    try {
      await log.sent(sent(1));
      await log.close();
      await rm(dir, { recursive: true });
      await log.sent(sent(2));
      expect((await readCreates(dir, sent(2).sheetId))?.creates.rows.map((r) => r.row)).toEqual([
        2,
      ]);
    } finally {
      await log.close();
    }
  });

  it('refuses a sheet id that is not one', async () => {
    const log = new CreatesLog(await tempDir('creates-log-'));
    await expect(log.sent({ ...sent(1), sheetId: '../x' })).rejects.toThrow(/not a sheet id/);
  });
});
