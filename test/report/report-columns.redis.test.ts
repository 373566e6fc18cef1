import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

/** A CSV file of the importer's as records by column name (its BOM and `;` as written). */
async function readCsv(path: string): Promise<Array<Record<string, string>>> {
  return parse(await readFile(path, 'utf8'), { bom: true, delimiter: ';', columns: true });
}

let t: TestPipeline;
beforeAll(async () => {
  t = await testPipeline();
});
afterAll(() => t.close());

describe('report.csv for people', () => {
  it('echoes each row’s address and contact after the contract columns, whatever its status', async () => {
    const dir = await tempDir('report-columns-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(101, { address1: 'Veldstraat', address2: '12 bus 3' }),
      sheetRow(102, { city: '', contact_name: '  Lien De Smet ' }),
      sheetRow(103, { address1: '', postal_code: '', contact_name: '' }),
    ]);
    const progress = await t.importSheet(sheet);
    expect(progress.counts).toMatchObject({ created: 1, invalid: 2 });
    const text = await readFile(join(progress.reportDir ?? '', 'report.csv'), 'utf8');
    expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'row;line;reference;status;order_id;inspection_ids;file_ids;attempts;error;address;contact_name;source_row;files',
    );
    const rows = await readCsv(join(progress.reportDir ?? '', 'report.csv'));
    expect(rows.map((r) => [r.row, r.status, r.address, r.contact_name, r.source_row])).toEqual([
      ['1', 'created', 'Veldstraat 12 bus 3, 9000 Gent', 'Contact 101', ''],
      // Invalid rows too: a person finds the row to fix by its address, as the sheet gives it.
      ['2', 'invalid', 'Kerkstraat 102, 9000', 'Lien De Smet', ''],
      ['3', 'invalid', '103, Gent', '', ''],
    ]);
  });
});

describe("report.csv's files", () => {
  it('names each row’s attachments as its sheet does, beside their ids, whatever its status', async () => {
    const dir = await tempDir('report-files-');
    await put(dir, 'plans/kelder.pdf', '%PDF kelder');
    await put(dir, 'epc.pdf', '%PDF epc');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(111, { files: 'plans/kelder.pdf|epc.pdf' }),
      sheetRow(112, { city: '', files: 'epc.pdf' }),
      sheetRow(113),
    ]);
    const progress = await t.importSheet(sheet);
    expect(progress.counts).toMatchObject({ created: 2, invalid: 1 });
    const rows = await readCsv(join(progress.reportDir ?? '', 'report.csv'));
    expect(rows.map((r) => [r.row, r.files, (r.file_ids ?? '').split('|').length])).toEqual([
      ['1', 'plans/kelder.pdf|epc.pdf', 2],
      ['2', 'epc.pdf', 1],
      ['3', '', 1],
    ]);
  });
});

describe('a failed/ sheet dropped back', () => {
  it('keeps the rows’ first numbers in source_row, however often it comes back (CSV)', async () => {
    const dir = await tempDir('source-row-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(201),
      sheetRow(202, { city: '' }),
      sheetRow(203),
      sheetRow(204, { city: '' }),
    ]);
    const first = await t.importSheet(sheet);
    expect(first.counts).toMatchObject({ created: 2, invalid: 2 });
    const firstFailed = join(first.reportDir ?? '', 'failed', 'orders.csv');
    const bundled = await readCsv(firstFailed);
    expect(bundled.map((r) => [r.reference, r.source_row])).toEqual([
      ['R-202', '2'],
      ['R-204', '4'],
    ]);

    // Dropped back as it is: still invalid, and its report says where each row came from.
    const second = await t.importSheet(firstFailed);
    expect(second.counts).toMatchObject({ invalid: 2 });
    const secondReport = await readCsv(join(second.reportDir ?? '', 'report.csv'));
    expect(secondReport.map((r) => [r.row, r.reference, r.source_row])).toEqual([
      ['1', 'R-202', '2'],
      ['2', 'R-204', '4'],
    ]);
    // Its own failed/ has one source_row and one error column, with the first numbers.
    const secondFailed = join(second.reportDir ?? '', 'failed', 'orders.csv');
    const header = (await readFile(secondFailed, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header?.split(';').filter((c) => c === 'source_row' || c === 'error')).toEqual([
      'source_row',
      'error',
    ]);
    expect((await readCsv(secondFailed)).map((r) => r.source_row)).toEqual(['2', '4']);

    // Fixed at last (row 4's city), dropped back a third time.
    const text = await readFile(secondFailed, 'utf8');
    const fixed = text.replace(/(;Kerkstraat;204;);/, '$1Gent;');
    expect(fixed).not.toBe(text);
    await writeFile(secondFailed, fixed);
    const third = await t.importSheet(secondFailed);
    expect(third.counts).toMatchObject({ created: 1, invalid: 1 });
    const thirdReport = await readCsv(join(third.reportDir ?? '', 'report.csv'));
    expect(thirdReport.map((r) => [r.row, r.status, r.reference, r.source_row])).toEqual([
      ['1', 'invalid', 'R-202', '2'],
      ['2', 'created', 'R-204', '4'],
    ]);
    // No column the importer added is taken for an unknown one.
    const summary = JSON.parse(
      await readFile(join(third.reportDir ?? '', 'summary.json'), 'utf8'),
    ) as { warnings: string[] };
    expect(summary.warnings).toEqual([]);
  });

  it('takes a source_row only as a row number: one forged in the sheet is not echoed as one', async () => {
    const dir = await tempDir('source-row-forged-');
    const forged = ['-5', '99999999999999999999', '=1+1', 'row seven', '0', ' 7 '];
    const rows = forged.map((_, i) => sheetRow(601 + i, { city: '' }));
    const plain = await readFile(await writeCsvSheet(dir, 'orders.csv', rows), 'utf8');
    const lines = plain.split('\r\n').filter(Boolean);
    const text = lines.map((line, i) => `${line};${i === 0 ? 'source_row' : forged[i - 1]}`);
    const sheet = await put(dir, 'orders.csv', `${text.join('\r\n')}\r\n`);
    const imported = await t.importSheet(sheet);
    expect(imported.counts).toMatchObject({ invalid: 6 });
    const report = await readCsv(join(imported.reportDir ?? '', 'report.csv'));
    expect(report.map((r) => r.source_row)).toEqual(['', '', '', '', '', '7']);
    // Its failed/ gives each row a number again (its own) where the sheet gave none; a number
    // is kept as the sheet wrote it.
    const bundled = await readCsv(join(imported.reportDir ?? '', 'failed', 'orders.csv'));
    expect(bundled.map((r) => r.source_row)).toEqual(['1', '2', '3', '4', '5', ' 7 ']);
  });

  it('keeps them in JSON too', async () => {
    const dir = await tempDir('source-row-json-');
    const rows = [sheetRow(301), sheetRow(302), sheetRow(303, { city: '' })];
    const sheet = await put(dir, 'orders.json', JSON.stringify(rows));
    const first = await t.importSheet(sheet);
    expect(first.counts).toMatchObject({ created: 2, invalid: 1 });
    const firstFailed = join(first.reportDir ?? '', 'failed', 'orders.json');
    const bundled = JSON.parse(await readFile(firstFailed, 'utf8')) as Array<
      Record<string, unknown>
    >;
    expect(bundled.map((o) => [o.reference, o.source_row])).toEqual([['R-303', 3]]);

    const second = await t.importSheet(firstFailed);
    const report = await parseReport(join(second.reportDir ?? '', 'report.csv'));
    expect(report.map((r) => [r.row, r.reference, r.source_row])).toEqual([['1', 'R-303', '3']]);
    const again = JSON.parse(
      await readFile(join(second.reportDir ?? '', 'failed', 'orders.json'), 'utf8'),
    ) as Array<Record<string, unknown>>;
    expect(again.map((o) => o.source_row)).toEqual([3]);
  });
});

/** A JSON sheet's report is comma-separated. */
async function parseReport(path: string): Promise<Array<Record<string, string>>> {
  return parse(await readFile(path, 'utf8'), { bom: true, delimiter: ',', columns: true });
}
