/**
 * report.csv is read as data to check, never trusted: one naming the same order on two rows (a
 * person's edit, two reports merged) reads that order once, so it is not counted as changed at
 * every run, and status.csv does not grow at each run that cannot read it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { reportOfSheet } from '../../src/status/report-folder.js';
import { refreshSheetStatus } from '../../src/status/status.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
beforeAll(async () => {
  t = await testPipeline({ sandbox: { dataDir: await tempDir('review13-repeat-sandbox-') } });
});
afterAll(async () => {
  await t.close();
});

it('does not count an order named on two rows of report.csv as changed when nothing changed', async () => {
  const dir = await tempDir('review13-repeat-sheet-');
  const { sheetId } = await t.importSheet(
    await writeCsvSheet(dir, 'orders.csv', [sheetRow(1)]),
    60_000,
  );
  const sheet = await reportOfSheet(t.reportsDir, sheetId);
  if (sheet === undefined) throw new Error('no report');
  const report = join(sheet.dir, 'report.csv');
  const [header, line] = (await readFile(report, 'utf8')).split('\r\n');
  if (header === undefined || line === undefined) throw new Error('no line in report.csv');
  // The same order's line again, as row 2.
  const again = line.replace(/^1([;,])/, '2$1');
  await writeFile(report, `${header}\r\n${line}\r\n${again}\r\n`);

  await refreshSheetStatus(t.ctx, sheet);
  const second = await refreshSheetStatus(t.ctx, sheet);
  expect(second.unreadable).toBe(0);
  expect(second.changed).toBe(0);
});
