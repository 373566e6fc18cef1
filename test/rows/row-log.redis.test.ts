/**
 * What a created row logs: one line, at debug. At the default level (info) a sheet of 100,000
 * rows must not write 100,000 lines to stderr — that cost an import more CPU than its HTTP client
 * did; the report and its `report written` line say what became of every row.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe("a created row's log line", () => {
  it('is written at debug, once per row; the report is said at info', async () => {
    const t = await testPipeline();
    open.push(t);
    const dir = await tempDir('row-log-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    const rows = Array.from({ length: 5 }, (_, i) => sheetRow(i + 1, { files: 'docs/plan.pdf' }));
    const progress = await t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows));
    expect(progress.counts.created).toBe(5);
    const records = t.logs.map((l) => JSON.parse(l) as { level: number; msg: string });
    const created = records.filter((r) => r.msg === 'order created');
    expect(created.map((r) => r.level)).toEqual([20, 20, 20, 20, 20]);
    expect(records.find((r) => r.msg === 'report written')?.level).toBe(30);
  });
});
