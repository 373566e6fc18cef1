import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

describe('a row whose file cannot be attached', () => {
  it('fails with its order id, and dropped back from failed/ attaches the file to that same order', async () => {
    const sandboxData = await tempDir('bundle-sandbox-');
    const dir = await tempDir('bundle-sheet-');
    await put(dir, 'docs/small.pdf', '%PDF small');
    await put(dir, 'docs/scans/big.pdf', Buffer.alloc(5000, 0x41));
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1, { files: 'docs/small.pdf|docs/scans/big.pdf' }),
      sheetRow(2, { city: '' }),
    ]);

    // The API takes at most 1000 bytes per file (PHP's upload_max_filesize).
    const strict = await testPipeline({
      sandbox: { dataDir: sandboxData, uploadMaxFileBytes: 1000 },
    });
    let reportDir: string;
    let orderId: number;
    try {
      const progress = await strict.importSheet(sheet);
      expect(progress.counts).toMatchObject({ failed: 1, invalid: 1 });
      reportDir = progress.reportDir ?? '';
      const [order] = await strict.sandbox.api.listOrders();
      orderId = order?.id ?? 0;
      expect(order?.files.map((f) => f.file_name)).toEqual(['small.pdf']);
    } finally {
      await strict.close();
    }

    const report = (await readFile(join(reportDir, 'report.csv'), 'utf8')).split('\r\n');
    expect(report[1]).toMatch(new RegExp(`^1;2;R-1;failed;${orderId};\\d+;\\d+\\|;`));
    expect(report[1]).toContain('docs/scans/big.pdf: POST');
    // The API's own sentence is quoted without its full stop, so the report reads as one sentence.
    expect(report[1]).toMatch(/[^.]\. Drop the row back from failed\//);
    const failed = (await readFile(join(reportDir, 'failed', 'orders.csv'), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatch(/;files;order_id;source_row;error;source_sheet$/);
    expect(failed[1]).toMatch(new RegExp(`;docs/scans/big\\.pdf;${orderId};1;`));
    expect(failed[2]).toMatch(/;;2;city is required: the city of the property\.;[\w-]+$/);
    // The bundle holds the file to send again, laid out as beside the sheet.
    expect((await readFile(join(reportDir, 'failed', 'docs', 'scans', 'big.pdf'))).length).toBe(
      5000,
    );

    // Later, with the limit raised, the bundle is dropped back.
    const relaxed = await testPipeline({ sandbox: { dataDir: sandboxData } });
    try {
      const again = await relaxed.importSheet(join(reportDir, 'failed', 'orders.csv'));
      expect(again.counts).toMatchObject({ created: 1, invalid: 1 });
      const orders = await relaxed.sandbox.api.listOrders();
      expect(orders).toHaveLength(1);
      expect(orders[0]?.id).toBe(orderId);
      expect(orders[0]?.files.map((f) => [f.file_name, f.size])).toEqual([
        ['small.pdf', 10],
        ['big.pdf', 5000],
      ]);
    } finally {
      await relaxed.close();
    }
  });
});
