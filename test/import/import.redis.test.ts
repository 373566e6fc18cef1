import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
beforeAll(async () => {
  t = await testPipeline({
    extraProducts: [{ id: 'NEW-1', name: 'Not yet at the API', category: '9.9' }],
  });
});
afterAll(() => t.close());

describe('importing a sheet', () => {
  it('creates the valid rows with their files, records the invalid and the refused', async () => {
    const dir = await tempDir('sheet-');
    await put(dir, 'docs/plan-1.pdf', Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    await put(dir, 'docs/plan-2.pdf', '%PDF-1.4 two');
    const path = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan-1.pdf|docs/plan-2.pdf' }),
      sheetRow(2, { city: '' }),
      sheetRow(3, { order_products: 'NEW-1' }),
      sheetRow(4),
    ]);
    const progress = await t.importSheet(path);
    expect(progress.counts).toMatchObject({ created: 2, invalid: 1, failed: 1 });

    const report = await readFile(join(progress.reportDir ?? '', 'report.csv'), 'utf8');
    const lines = report
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'row;line;reference;status;order_id;inspection_ids;file_ids;attempts;error;address;contact_name;source_row;files',
    );
    expect(lines.slice(1).map((l) => l.split(';').slice(0, 4).join(';'))).toEqual([
      '1;2;R-1;created',
      '2;3;R-2;invalid',
      '3;4;R-3;failed',
      '4;5;R-4;created',
    ]);
    expect(lines[3]).toContain('order_products: The selected order_products.0.id is invalid.');

    const orders = await t.sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name).sort()).toEqual(['Contact 1', 'Contact 4']);
    const first = orders.find((o) => o.contact_name === 'Contact 1');
    expect(first?.files.map((f) => f.file_name)).toEqual(['plan-1.pdf', 'plan-2.pdf']);
    const bytes = await t.sandbox.api.getFile(first?.files[0]?.id ?? 0);
    expect(bytes.body.equals(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(true);
  });

  it('leaves no finished row job in Redis: the rows live in the report', async () => {
    const dir = await tempDir('sheet-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(11), sheetRow(12)]);
    expect((await t.importSheet(path)).counts).toMatchObject({ created: 2 });
    const counts = await t.ctx.queues.rows.getJobCounts('completed', 'failed', 'active', 'wait');
    expect(counts).toEqual({ completed: 0, failed: 0, active: 0, wait: 0 });
  });
});
