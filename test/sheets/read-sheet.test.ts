import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile, packageRoot } from '../../src/package-root.js';
import { parseMapping } from '../../src/orders/columns.js';
import { SheetError } from '../../src/sheets/errors.js';
import { type ReadSheetOptions, type RowResult, readSheet } from '../../src/sheets/read-sheet.js';
import { put, tempDir } from '../helpers/files.js';

const catalogue = await loadCatalogue(defaultProductsFile());
const options: ReadSheetOptions = { catalogue, maxAttachmentBytes: 1024 * 1024 };
const dir = await tempDir('read-sheet-');
await put(dir, 'docs/plan.pdf', '%PDF-1.4');

const HEADER =
  'reference,property_type,address1,address2,city,postal_code,contact_name,contact_language,contact_email,inv_mail,invoice_to,is_contact_owner,order_products,files';
const row = (reference: string, extra = '') =>
  `${reference},Andere,Kerkstraat,1,Gent,9000,An,nl,an@example.be,f@example.be,tenant,contact,EPC,docs/plan.pdf${extra}`;

async function readAll(name: string, content: string, opts: Partial<ReadSheetOptions> = {}) {
  const path = await put(dir, name, content);
  const sheet = await readSheet(path, { ...options, ...opts });
  const rows: RowResult[] = [];
  for await (const batch of sheet.batches) rows.push(...batch);
  return { ...sheet, rows };
}

const problemsOf = (result: RowResult | undefined) => (result && !result.ok ? result.problems : []);

describe('readSheet', () => {
  it('gives valid rows with their order and checked attachments', async () => {
    const sheet = await readAll('ok.csv', `${HEADER}\n${row('R1')}\n`);
    expect(sheet.info).toMatchObject({ format: 'csv', delimiter: ',', encoding: 'utf-8' });
    expect(sheet.rows).toHaveLength(1);
    const [first] = sheet.rows;
    expect(first).toMatchObject({
      ok: true,
      row: 1,
      line: 2,
      reference: 'R1',
      order: { city: 'Gent', order_products: [{ id: 'EPC', quantity: 1 }] },
      attachments: [{ path: 'docs/plan.pdf', absolute: join(dir, 'docs', 'plan.pdf'), bytes: 8 }],
    });
    expect(sheet.warnings).toEqual([]);
  });

  it('refuses a reference used before, on the later rows', async () => {
    const sheet = await readAll(
      'dupes.csv',
      `${HEADER}\n${row('R1')}\n${row('R2')}\n${row('R1')}\n`,
    );
    expect(sheet.rows.map((r) => r.ok)).toEqual([true, true, false]);
    expect(problemsOf(sheet.rows[2])).toEqual([
      {
        row: 3,
        line: 4,
        column: 'reference',
        message: 'reference "R1" is already used by row 1: each row needs its own reference.',
      },
    ]);
  });

  it('checks the attachments of invalid rows too', async () => {
    const sheet = await readAll(
      'both.csv',
      `${HEADER}\n${row('R1').replace(',Gent,', ',,').replace('docs/plan.pdf', 'docs/none.pdf')}\n`,
    );
    expect(problemsOf(sheet.rows[0]).map((p) => p.column)).toEqual(['city', 'files']);
  });

  it('reports cells past the header instead of dropping them', async () => {
    const sheet = await readAll('extra.csv', `${HEADER}\n${row('R1', ',surplus,more')}\n`);
    expect(problemsOf(sheet.rows[0])[0]?.message).toBe(
      'this row has 2 more cells than the header has columns: name the columns in the header or remove the cells.',
    );
  });

  it('warns once about unknown columns and about data in nameless columns', async () => {
    const sheet = await readAll(
      'unknown.csv',
      `${HEADER},Notes,,Agent\n${row('R1', ',n,x,a')}\n${row('R2', ',n,,a')}\n${row('R3', ',n,y,a')}\n`,
    );
    expect(sheet.rows.every((r) => r.ok)).toBe(true);
    expect(sheet.warnings).toEqual([
      'Unknown columns ignored: "Notes", "Agent". They are not order fields; if one holds an order field under another name, map it with --mapping.',
      '2 rows have values in a column without a name (column P); they are ignored: give the column a name in the header.',
    ]);
  });

  it('refuses a header that names no order field', async () => {
    const error = await readAll(
      'title.csv',
      'Export of orders;;\nStraat;Gemeente;Postcode\n',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SheetError);
    expect((error as Error).message).toMatch(
      /^line 1: the header row names no order field \("Export of orders"\)/,
    );
  });

  it('refuses two columns that give one field, naming both', async () => {
    await expect(readAll('twice.csv', 'city,City\nGent,Gent\n')).rejects.toThrow(
      'line 1: the columns "city" and "City" both give city; keep one of them.',
    );
  });

  it('uses a mapping and names problems by the sheet’s own columns', async () => {
    const mapping = parseMapping({ Gemeente: 'city', Straat: 'address1' }, 'm.json');
    const header = HEADER.replace('address1', 'Straat').replace('city', 'Gemeente');
    const sheet = await readAll('mapped.csv', `${header}\n${row('R1').replace(',Gent,', ',,')}\n`, {
      mapping,
    });
    expect(problemsOf(sheet.rows[0])).toEqual([
      expect.objectContaining({
        column: 'Gemeente',
        message: 'city is required: the city of the property.',
      }),
    ]);
  });

  it('reads JSON and NDJSON sheets, warning about unknown keys', async () => {
    const order = {
      reference: 'J1',
      property_type: 'Andere',
      address1: 'Kerkstraat',
      address2: 1,
      city: 'Gent',
      postal_code: 9000,
      contact_name: 'An',
      contact_language: 'nl',
      no_contact_mail: true,
      no_inv_mail: 1,
      invoice_to: 'tenant',
      is_contact_owner: 'contact',
      order_products: [{ id: 'EPC', quantity: 1 }],
      files: ['docs/plan.pdf'],
      crm_id: 77,
    };
    const json = await readAll(
      'sheet.json',
      JSON.stringify([order, { ...order, reference: 'J2', City: 'x' }]),
    );
    expect(json.rows.map((r) => r.ok)).toEqual([true, false]);
    expect(json.rows[0]).toMatchObject({
      line: null,
      order: { address2: '1', postal_code: '9000', no_contact_mail: 1 },
    });
    expect(problemsOf(json.rows[1])[0]?.message).toBe(
      '"city" and "City" both give city; keep one of them.',
    );
    expect(json.warnings).toEqual([expect.stringMatching(/^Unknown column ignored: "crm_id"/)]);

    const ndjson = await readAll('sheet.ndjson', `${JSON.stringify(order)}\nnot json\n`);
    expect(ndjson.rows.map((r) => [r.row, r.line, r.ok])).toEqual([
      [1, 1, true],
      [2, 2, false],
    ]);
  });

  it.each([
    [
      'orders.xlsx',
      /"\.xlsx" is not a sheet format: use \.csv, \.json, \.ndjson or \.jsonl\. Save it from Excel as "CSV UTF-8"/,
    ],
    ['orders.txt', /"\.txt" is not a sheet format/],
  ])('refuses %s by its extension', async (name, message) => {
    await expect(readAll(name, 'a,b\n')).rejects.toThrow(message);
  });
});

describe('the samples', () => {
  const samples = join(packageRoot(), 'samples');

  it('validate clean in every format, and give the same orders', async () => {
    const orders = [];
    for (const name of ['orders.csv', 'orders.json', 'orders.ndjson']) {
      const sheet = await readSheet(join(samples, name), options);
      const rows: RowResult[] = [];
      for await (const batch of sheet.batches) rows.push(...batch);
      expect(
        rows.filter((r) => !r.ok),
        name,
      ).toEqual([]);
      expect(sheet.warnings, name).toEqual([]);
      orders.push(rows.map((r) => (r.ok ? [r.order, r.attachments.map((a) => a.path)] : null)));
    }
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[2]).toEqual(orders[0]);
  });

  it('include an Excel-style CSV: semicolons, Windows-1252, CRLF', async () => {
    const sheet = await readSheet(join(samples, 'orders.csv'), options);
    expect(sheet.info).toMatchObject({ delimiter: ';', encoding: 'windows-1252' });
  });
});
