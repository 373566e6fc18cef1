import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile, packageRoot } from '../../src/package-root.js';
import { parseMappingFile } from '../../src/orders/mapping.js';
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
      'Unknown columns ignored: "Notes", "Agent": they are not order fields. Did you mean "Notes" → remark? Add { "columns": { "Notes": "remark" } } to a mapping.json beside the sheet.',
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
    const mapping = parseMappingFile(
      { Gemeente: 'city', Straat: 'address1' },
      { kind: 'flag', file: '/m.json' },
    );
    const header = HEADER.replace('address1', 'Straat').replace('city', 'Gemeente');
    const sheet = await readAll('mapped.csv', `${header}\n${row('R1').replace(',Gent,', ',,')}\n`, {
      mapping,
    });
    expect(problemsOf(sheet.rows[0])).toEqual([
      expect.objectContaining({
        column: 'Gemeente',
        message: 'Gemeente is required: the city of the property.',
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
    ['orders.xls', /an old-style Excel workbook \(\.xls\).*save it as \.xlsx or CSV\./],
    [
      'orders.txt',
      /"\.txt" is not a sheet format: use \.csv, \.xlsx, \.json, \.ndjson or \.jsonl\./,
    ],
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

describe('readSheet with a mapping', () => {
  const DUTCH_HEADER =
    'Referentie;Type;Straat;Nr;Gemeente;Postcode;Naam;Taal;E-mail;Facturatie e-mail;Factuur aan;Eigenaar;Producten;Bijlagen';
  const dutchRow = (ref: string, taal: string, factuur: string) =>
    `${ref};Andere;Kerkstraat;1;Gent;9000;Jozef Peeters;${taal};jozef@example.be;f@example.be;${factuur};contact;EPC;docs/plan.pdf`;
  const mapping = parseMappingFile(
    {
      columns: {
        Referentie: 'reference',
        Type: 'property_type',
        Straat: 'address1',
        Nr: 'address2',
        Gemeente: 'city',
        Naam: 'contact_name',
        Taal: 'contact_language',
        'E-mail': 'contact_email',
        'Facturatie e-mail': 'inv_mail',
        'Factuur aan': 'invoice_to',
        Eigenaar: 'is_contact_owner',
        Producten: 'order_products',
        Bijlagen: 'files',
      },
      values: { contact_language: { Nederlands: 'nl' }, invoice_to: { verkoper: 'salesman' } },
    },
    { kind: 'beside', file: join(dir, 'mapping.json') },
  );

  it('reads a Windows-1252 sheet through it, says once which mapping, and hints the rest', async () => {
    const text = [
      DUTCH_HEADER,
      dutchRow('D1', 'Nederlands', 'Verkoper'),
      dutchRow('D2', 'Duits', 'verkoper'),
    ]
      .join('\r\n')
      .replace('Jozef Peeters', 'Jozef Peeters-Maës');
    // As Excel on Belgian Windows saves it.
    const path = await put(dir, 'dutch.csv', Buffer.from(`${text}\r\n`, 'latin1'));
    const opened = await readSheet(path, { ...options, mapping });
    const sheet = { ...opened, rows: [] as RowResult[] };
    for await (const batch of opened.batches) sheet.rows.push(...batch);
    expect(sheet.rows[0]?.source.data).toContain('Jozef Peeters-Maës');
    expect(sheet.info).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
    // Postcode is not in the mapping: the row lacks postal_code, and is told what to write.
    const advice = 'add "Postcode": "postal_code" to "columns" in ' + join(dir, 'mapping.json');
    expect(problemsOf(sheet.rows[0])).toEqual([
      expect.objectContaining({
        column: 'postal_code',
        message: `postal_code is required: the postal code of the property; if the column "Postcode" holds it, ${advice}.`,
      }),
    ]);
    expect(problemsOf(sheet.rows[1]).map((p) => [p.column, p.message.slice(0, 40)])).toEqual([
      ['Taal', 'Taal must be one of "nl", "en", "fr", or'],
      ['postal_code', 'postal_code is required: the postal code'],
    ]);
    expect(sheet.warnings).toEqual([
      `Read with the mapping ${join(dir, 'mapping.json')} (beside the sheet): columns "Referentie" → reference, "Type" → property_type, "Straat" → address1, "Nr" → address2, "Gemeente" → city, "Naam" → contact_name, "Taal" → contact_language, "E-mail" → contact_email, "Facturatie e-mail" → inv_mail, "Factuur aan" → invoice_to, "Eigenaar" → is_contact_owner, "Producten" → order_products, 1 more; words for the values of contact_language, invoice_to.`,
      `Unknown column ignored: "Postcode": it is not an order field. Did you mean postal_code? Add "Postcode": "postal_code" to "columns" in ${join(dir, 'mapping.json')}.`,
    ]);
  });

  it('gives the order in the API’s values', async () => {
    const text = [`${DUTCH_HEADER};Pc`, `${dutchRow('D1', 'nederlands ', 'VERKOPER')};9000`];
    const withPc = parseMappingFile(
      {
        ...(mapping.json as object),
        columns: { ...(mapping.json.columns as object), Pc: 'postal_code' },
      },
      mapping.source,
    );
    const sheet = await readAll('dutch-ok.csv', `${text.join('\n')}\n`, { mapping: withPc });
    expect(sheet.rows[0]).toMatchObject({
      ok: true,
      reference: 'D1',
      order: { contact_language: 'nl', invoice_to: 'salesman', postal_code: '9000', city: 'Gent' },
    });
  });

  it('says so when the mapping maps none of the sheet’s columns', async () => {
    const sheet = await readAll('unmapped.csv', `${HEADER}\n${row('R1')}\n`, { mapping });
    expect(sheet.warnings).toEqual([
      `Read with the mapping ${join(dir, 'mapping.json')} (beside the sheet): none of its column names is in this sheet; words for the values of contact_language, invoice_to.`,
    ]);
  });

  it('names the JSON keys it mapped', async () => {
    const path = await put(
      dir,
      'dutch.ndjson',
      `${JSON.stringify({ Referentie: 'J1', Taal: 'Nederlands', Postcode: '9000' })}\n`,
    );
    const sheet = await readSheet(path, { ...options, mapping });
    for await (const batch of sheet.batches) expect(batch).toHaveLength(1);
    expect(sheet.warnings[0]).toMatch(
      /columns "Referentie" → reference, "Taal" → contact_language;/,
    );
    expect(sheet.warnings[1]).toMatch(
      /^Unknown column ignored: "Postcode".*Did you mean postal_code\?/,
    );
  });

  it('refuses a sheet holding two of the user’s names for one field, naming both', async () => {
    const both = parseMappingFile(
      { Straat: 'address1', Adres: 'address1' },
      { kind: 'flag', file: '/m.json' },
    );
    await expect(
      readAll('both.csv', 'Straat;Adres;city\nKerkstraat;Veldstraat;Gent\n', { mapping: both }),
    ).rejects.toThrow(
      'line 1: the columns "Straat" and "Adres" both give address1; keep one of them.',
    );
  });

  it('is never given a mapping.json to read as a sheet', async () => {
    await expect(readAll('mapping.json', '{ "Straat": "address1" }')).rejects.toThrow(
      /mapping\.json is a mapping \(column names and words for the sheets beside it\), not a sheet of orders/,
    );
  });

  it('hints the mapping to write when the header names no field', async () => {
    const error = await readAll('nofield.csv', 'Straat;Gemeente;Agent\nKerkstraat;Gent;x\n').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(
      'line 1: the header row names no order field ("Straat", "Gemeente", "Agent"): the row above the orders must name the columns, e.g. address1, city, order_products. To map your own names, add { "columns": { "Straat": "address1", "Gemeente": "city" } } to a mapping.json beside the sheet.',
    );
  });
});
