/**
 * What a row costs Redis, counted on the server (MONITOR): the importer's own requests, not
 * BullMQ's. With no rate limit to wait for, a row with one file takes three of them — its first
 * step (final?, what is stored, its ledger key, its create's claim), the create's answer with its
 * ledger entry, and its outcome — whatever it stores in between; its progress is never written
 * to the BullMQ job. A row that found no turn free at its first step (the process's first answer
 * not heard yet, or the fleet's pace not looked at for a while) claims its create apart, after
 * its turn: how many do depends on the machine's speed, so they are bounded by the pace's looks.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { monitorRedis } from '../helpers/redis-monitor.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const ROWS = 100;

describe('a row imported with no rate limit to wait for', () => {
  it('costs the importer three requests to Redis, and BullMQ no update of its job', async () => {
    const t = await testPipeline({ settings: { concurrency: 8 } });
    open.push(t);
    const dir = await tempDir('round-trips-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    const sheet = await writeCsvSheet(
      dir,
      'orders.csv',
      Array.from({ length: ROWS }, (_, i) => sheetRow(i + 1, { files: 'docs/plan.pdf' })),
    );
    const own = `{${t.redis.prefix}}:importer:`;
    const counted = { own: 0, updateData: 0, claimsApart: 0, paceLooks: 0 };
    const monitor = await monitorRedis(t.redis.url, ({ source, args }) => {
      if (source === 'lua') return;
      // BullMQ's updateData: a script with the job's key alone.
      const oneKey = args[0] === 'evalsha' && args[2] === '1' ? (args[3] ?? '') : '';
      if (/:rows-[0-9a-f]+:.+\.r\d+$/.test(oneKey)) counted.updateData += 1;
      // A create claimed apart: the row's creates, and the installations its marker is in.
      const claimKey = args[0] === 'evalsha' && args[2] === '2' ? (args[3] ?? '') : '';
      // The progress polls of this test read the sheet's record: they are not the rows' cost.
      if (args[0] === 'hgetall' || args[0] === 'scard' || args[0] === 'hmget') return;
      if (!args.some((a) => a.startsWith(own))) return;
      counted.own += 1;
      if (args.some((a) => a.startsWith(`${own}connection:`) && a.endsWith(':pace')))
        counted.paceLooks += 1;
      else if (claimKey.endsWith(':creates')) counted.claimsApart += 1;
    });
    try {
      const progress = await t.importSheet(sheet, 60_000);
      expect(progress.counts.created).toBe(ROWS);
    } finally {
      monitor.stop();
    }
    expect(counted.updateData).toBe(0);
    // Three per row, and what the sheet costs once (its record, copy, checkpoints, report).
    const perRow = (counted.own - counted.claimsApart - counted.paceLooks) / ROWS;
    expect(perRow).toBeGreaterThanOrEqual(3);
    expect(perRow).toBeLessThan(3.5);
    // Apart: at most the rows in flight at the start and each time the pace was looked at again.
    expect(counted.claimsApart).toBeLessThanOrEqual(8 * (1 + counted.paceLooks));
  });
});
