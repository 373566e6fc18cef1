import { stat } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { runSheetJob } from '../../src/split/sheet-job.js';
import { put, tempDir } from '../helpers/files.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import {
  recordTestSheet,
  testPipeline,
  waitForReport,
  withRowsQueue,
} from '../helpers/pipeline.js';
import { submitSheet } from '../../src/intake/submit.js';
import { knownError } from '../helpers/known-error.js';

describe('a sheet job that dies part-way and runs again', () => {
  it('neither skips a row nor enqueues one twice', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const { store } = t.ctx;
      const rows = Array.from({ length: 1800 }, (_, i) =>
        sheetRow(i + 1, i % 100 === 7 ? { city: '' } : {}),
      );
      const path = await writeCsvSheet(await tempDir('checkpoint-'), 'big.csv', rows);
      await recordTestSheet(store, 's-cp', path, t.ctx.settings.sheetsDir, t.ctx.connection.id);
      const added: string[] = [];
      let calls = 0;
      let dieAt = 2; // the second addBulk call fails, as if the process died there
      const ctx = withRowsQueue(t.ctx, {
        addBulk: async (jobs) => {
          calls += 1;
          if (calls === dieAt) throw new Error('the process died');
          added.push(...jobs.map((j) => j.opts?.jobId ?? ''));
          return [];
        },
        getJobCountByTypes: async () => 0,
      });
      await expect(runSheetJob(ctx, 's-cp')).rejects.toThrow('the process died');
      dieAt = -1;
      await runSheetJob(ctx, 's-cp');

      const invalid = rows.filter((_, i) => i % 100 === 7).length;
      const valid = rows.length - invalid;
      // What the first run added before dying may be added again by the second run (BullMQ
      // ignores an id it holds); what matters is that every valid row is there, and nothing else.
      expect(new Set(added).size).toBe(valid);
      expect(added.length - new Set(added).size).toBeLessThanOrEqual(500); // the chunk in flight
      expect(added.every((id) => /^s-cp\.r\d+$/.test(id))).toBe(true);
      expect(await store.finalCount('s-cp')).toBe(invalid);
      expect((await store.get('s-cp'))?.total).toBe(rows.length);
    } finally {
      await t.close();
    }
  });
});

describe('a sheet too large to keep in memory between the passes', () => {
  it('is read again to hand its rows on, and a rerun goes on from the checkpoint', async () => {
    const t = await testPipeline({ workers: false });
    try {
      const { store } = t.ctx;
      // 4,000 rows of over 2 KB each: past the 8 MiB up to which a sheet's records are kept.
      const header =
        'reference;property_type;address1;address2;city;postal_code;contact_name;contact_language;contact_email;inv_mail;invoice_to;is_contact_owner;order_products;notes';
      const padding = 'x'.repeat(2100);
      const lines = Array.from(
        { length: 4000 },
        (_, i) =>
          `R-${i + 1};Andere;Kerkstraat;1;${i % 500 === 9 ? '' : 'Gent'};9000;C;nl;c${i}@example.be;f@example.be;tenant;contact;EPC;${padding}`,
      );
      const path = await put(
        await tempDir('large-'),
        'large.csv',
        `${[header, ...lines].join('\r\n')}\r\n`,
      );
      expect((await stat(path)).size).toBeGreaterThan(8 * 1024 * 1024);
      await recordTestSheet(store, 's-large', path, t.ctx.settings.sheetsDir, t.ctx.connection.id);
      const added: string[] = [];
      let calls = 0;
      let dieAt = 3;
      const ctx = withRowsQueue(t.ctx, {
        addBulk: async (jobs) => {
          calls += 1;
          if (calls === dieAt) throw new Error('the process died');
          added.push(...jobs.map((j) => j.opts?.jobId ?? ''));
          return [];
        },
        getJobCountByTypes: async () => 0,
      });
      await expect(runSheetJob(ctx, 's-large')).rejects.toThrow('the process died');
      expect((await store.get('s-large'))?.expected).toBe(4000);
      dieAt = -1;
      await runSheetJob(ctx, 's-large');

      const invalid = lines.filter((_, i) => i % 500 === 9).length;
      expect(new Set(added).size).toBe(4000 - invalid);
      expect(await store.finalCount('s-large')).toBe(invalid);
      const sheet = await store.get('s-large');
      expect(sheet?.total).toBe(4000);
      expect(sheet?.warnings.join()).toContain('"notes"');
    } finally {
      await t.close();
    }
  });
});

describe('--allow-duplicates', () => {
  it('creates orders again for rows imported before', async () => {
    const t = await testPipeline();
    try {
      const dir = await tempDir('allow-');
      const first = await writeCsvSheet(dir, 'a.csv', [sheetRow(1), sheetRow(2)]);
      const second = await writeCsvSheet(dir, 'b.csv', [sheetRow(1), sheetRow(2), sheetRow(3)]);
      await t.importSheet(first);
      const { sheetId } = await submitSheet(t.ctx, second, { allowDuplicates: true });
      const progress = await waitForReport(t.ctx, sheetId);
      expect(progress.counts).toMatchObject({ created: 3, duplicate: 0 });
      expect(await t.sandbox.api.listOrders()).toHaveLength(5);
    } finally {
      await t.close();
    }
  });
});

describe('a sheet job whose rows queue holds rows handed back to wait', () => {
  it('counts them as queued: it waits for them rather than pours the sheet into Redis', async () => {
    const t = await testPipeline({ workers: false, settings: { rowsHighWater: 100 } });
    try {
      // Rows of another data folder's sheet, handed back by this one's workers: delayed, not waiting.
      const away = Array.from({ length: 150 }, (_, i) => ({
        name: 'row',
        data: {},
        opts: { jobId: `away.r${i + 1}`, delay: 600_000 },
      }));
      await t.ctx.queues.rows.addBulk(away);
      const path = await writeCsvSheet(
        await tempDir('held-by-delayed-'),
        'orders.csv',
        Array.from({ length: 100 }, (_, i) => sheetRow(i + 1)),
      );
      await recordTestSheet(
        t.ctx.store,
        's-delayed',
        path,
        t.ctx.settings.sheetsDir,
        t.ctx.connection.id,
      );
      // Resumed after 50 rows handed on, none final: more than a sheet may always have queued
      // (a tenth of the high water mark), so only the queue's count decides.
      await t.ctx.store.markHanding('s-delayed');
      await t.ctx.store.update('s-delayed', { checkpoint: 50 });
      const stop = { ...t.ctx.stop, stopping: new AbortController() };
      const ctx = withRowsQueue(
        { ...t.ctx, stop },
        {
          getJobCountByTypes: async (...types) => {
            const counted = await t.ctx.queues.rows.getJobCountByTypes(...types);
            // Looked at, the job is stopped: held up by the full queue, it ends with a StoppingError.
            stop.stopping.abort();
            return counted;
          },
        },
      );
      await expect(runSheetJob(ctx, 's-delayed')).rejects.toThrow(
        knownError('NotYet', 'process.stopping'),
      );
      expect((await t.ctx.store.get('s-delayed'))?.total).toBeUndefined();
      expect(await t.ctx.queues.rows.getJobCountByTypes('prioritized', 'waiting')).toBe(0);
    } finally {
      await t.close();
    }
  });
});
