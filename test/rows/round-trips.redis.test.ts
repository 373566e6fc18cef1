/**
 * What a row costs Redis, counted on the server (MONITOR): the importer's own requests, not
 * BullMQ's. With no rate limit to wait for, a row with one file takes four of them — its first
 * step (final?, what is stored, its ledger key, its create's claim), the create's answer with its
 * ledger entry, its file marked as on its way once its turn has come (never before: what is
 * recorded does not hang on the pace), and its outcome; its progress is never written to the
 * BullMQ job. A row that found no turn free at its first step (the process's first answer not
 * heard yet, or the fleet's pace not looked at for a while) claims its create apart, after its
 * turn: how many do depends on the machine's speed, so they are bounded by the pace's looks.
 *
 * Only what rows cause is counted: requests that touch the sheet's keys (its record, its rows'
 * progress, results and finals). What runs on a timer — the pace's looks, this test's own polls
 * for the report and for a stopped import — takes longer on a loaded machine and is no row's.
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
  it('costs the importer four requests to Redis, and BullMQ no update of its job', async () => {
    // A lock that outlasts a loaded machine's pauses: a row whose lock ran out would be run
    // again by stall recovery (another test's subject), costing its first step twice.
    const t = await testPipeline({ settings: { concurrency: 8, lockMs: 30_000 } });
    open.push(t);
    const dir = await tempDir('round-trips-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    const sheet = await writeCsvSheet(
      dir,
      'orders.csv',
      Array.from({ length: ROWS }, (_, i) => sheetRow(i + 1, { files: 'docs/plan.pdf' })),
    );
    const own = `{${t.redis.prefix}}:importer:`;
    const sheetKey = `${own}sheet:`;
    const counted = { rows: 0, updateData: 0, claimsApart: 0, savesApart: 0, paceLooks: 0 };
    const monitor = await monitorRedis(t.redis.url, ({ source, args }) => {
      if (source === 'lua') return;
      // BullMQ's updateData: a script with the job's key alone.
      const oneKey = args[0] === 'evalsha' && args[2] === '1' ? (args[3] ?? '') : '';
      if (/:rows-[0-9a-f]+:.+\.r\d+$/.test(oneKey)) counted.updateData += 1;
      // A create claimed apart: the row's creates, and the installations its marker is in.
      const claimKey = args[0] === 'evalsha' && args[2] === '2' ? (args[3] ?? '') : '';
      // The progress polls of this test read the sheet's record: they are not the rows' cost.
      if (args[0] === 'hgetall' || args[0] === 'scard' || args[0] === 'hmget') return;
      if (args.some((a) => a.startsWith(`${own}connection:`) && a.endsWith(':pace')))
        counted.paceLooks += 1;
      // What a row causes touches the sheet's keys; a timer's requests (the pace, a stopped
      // import looked for) touch the connection's alone, and are no row's cost.
      if (!args.some((a) => a.startsWith(sheetKey))) return;
      counted.rows += 1;
      if (oneKey.endsWith(':creates') || claimKey.endsWith(':creates')) counted.claimsApart += 1;
      else if (args[0] === 'hset' && (args[1] ?? '').endsWith(':creates')) counted.savesApart += 1;
    });
    try {
      const progress = await t.importSheet(sheet, 60_000);
      expect(progress.counts.created).toBe(ROWS);
    } finally {
      monitor.stop();
    }
    expect(counted.updateData).toBe(0);
    // Four per row, and what the sheet costs once (its record, copy, checkpoints, report).
    const perRow = (counted.rows - counted.claimsApart) / ROWS;
    const said = JSON.stringify(counted);
    expect(perRow, said).toBeGreaterThanOrEqual(4);
    expect(perRow, said).toBeLessThan(4.5);
    // One file each, marked once; nothing else of a row is saved on its own.
    expect(counted.savesApart, said).toBe(ROWS);
    // Apart: at most the rows in flight at the start and each time the pace was looked at again.
    expect(counted.claimsApart, said).toBeLessThanOrEqual(8 * (1 + counted.paceLooks));
  });
});
