import { describe, expect, it } from 'vitest';

import { loadCatalogue } from '../../src/orders/catalogue.js';
import { type Mapping, parseMappingFile } from '../../src/orders/mapping.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { readSheet, type RowResult, validateSource } from '../../src/sheets/read-sheet.js';
import {
  openSource,
  readRecords,
  readToEnd,
  replaySource,
  sourceRecords,
} from '../../src/sheets/records.js';
import { SheetError } from '../../src/sheets/errors.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';

const catalogue = await loadCatalogue(defaultProductsFile());
const dir = await tempDir('records-');

const HEADER =
  'reference,property_type,address1,address2,city,postal_code,contact_name,contact_language,contact_email,inv_mail,invoice_to,is_contact_owner,order_products,files';
const row = (reference: string, files: string, city = 'Gent') =>
  `${reference},Andere,Kerkstraat,1,${city},9000,An,nl,an@example.be,f@example.be,tenant,contact,EPC,${files}`;

async function allRecords(path: string, mapping?: Mapping) {
  const sheet = await readRecords(path, mapping);
  const records: SourceRecord[] = [];
  for await (const batch of sheet.batches) records.push(...batch);
  return { sheet, records };
}

describe('a sheet’s records, not validated', () => {
  it('are every record as written, with the files each names as validation reads them', async () => {
    const path = await put(
      dir,
      'files.csv',
      [HEADER, row('A', 'docs/a.pdf| docs\\b.pdf '), row('B', '', ''), row('C', 'gone.pdf')].join(
        '\n',
      ),
    );
    const { sheet, records } = await allRecords(path);
    expect(records.map((r) => r.row)).toEqual([1, 2, 3]);
    expect(records[1]?.data).toEqual(row('B', '', '').split(','));
    // Row 2 is invalid (no city): its files are still the cell's, usable or not.
    expect(records.map((r) => sheet.filesOf(r))).toEqual([
      ['docs/a.pdf', 'docs/b.pdf'],
      [],
      ['gone.pdf'],
    ]);
    expect(sheet.info.columns?.files).toBe('files');
  });

  it('read the files cell of JSON objects through the mapping, and none from a broken line', async () => {
    const path = await put(
      dir,
      'files.ndjson',
      '{"ref":"A","bijlagen":["x.pdf","y.pdf"]}\nnot json\n{"ref":"B","bijlagen":7}\n',
    );
    const mapping = parseMappingFile(
      { bijlagen: 'files', ref: 'reference' },
      { kind: 'flag', file: 'test' },
    );
    const { sheet, records } = await allRecords(path, mapping);
    expect(records.map((r) => sheet.filesOf(r))).toEqual([['x.pdf', 'y.pdf'], [], []]);
  });

  it('refuse a sheet that cannot be read to its end, as validation does', async () => {
    const path = await put(
      dir,
      'open-quote.csv',
      [HEADER, row('A', ''), `"B,${row('C', '')}`].join('\n'),
    );
    await expect(allRecords(path)).rejects.toThrow(SheetError);
  });
});

describe('a sheet read once and validated from its records kept', () => {
  it('gives the same rows and warnings as reading it again, the first batch cut short', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(`R-${i}`, '', i % 7 === 3 ? '' : 'Gent'));
    const path = await put(dir, 'kept.csv', [`${HEADER},extra`, ...rows].join('\n'));
    const options = { catalogue, maxAttachmentBytes: 1024, folder: dir };

    const source = await openSource(path);
    const kept: SourceRecord[][] = [];
    for await (const batch of sourceRecords(source)) kept.push(batch);
    const replayed = validateSource(replaySource(source, kept), { ...options, firstBatch: 4 });
    const again = await readSheet(path, options);

    const sizes: number[] = [];
    const fromKept: RowResult[] = [];
    for await (const batch of replayed.batches) {
      sizes.push(batch.length);
      fromKept.push(...batch);
    }
    const fromFile: RowResult[] = [];
    for await (const batch of again.batches) fromFile.push(...batch);
    expect(sizes[0]).toBe(4);
    expect(fromKept).toEqual(fromFile);
    expect(fromKept.filter((r) => !r.ok)).toHaveLength(7);
    expect(replayed.warnings).toEqual(again.warnings);
    expect(replayed.warnings.join()).toContain('"extra"');
  });
});

describe('a sheet read to its end by the first pass', () => {
  it('is counted, and its records kept while they are estimated to fit the memory given', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(`R-${i}`, ''));
    const path = await put(dir, 'to-end.csv', [HEADER, ...rows].join('\n'));

    const kept = await readToEnd(await openSource(path), 1024 * 1024);
    expect(kept.rows).toBe(50);
    expect(kept.kept?.flat().map((r) => r.row)).toEqual(rows.map((_, i) => i + 1));

    const counted = await readToEnd(await openSource(path), 0);
    expect(counted).toEqual({ rows: 50 });
  });

  it('keeps none of a small file of very many short rows, which would take a hundred times its size', async () => {
    // 2 MB, 1,000,000 rows: kept, about 265 MB of records.
    const path = await put(dir, 'short-rows.csv', `city\n${'a\n'.repeat(1_000_000)}`);
    const read = await readToEnd(await openSource(path), 48 * 1024 * 1024);
    expect(read).toEqual({ rows: 1_000_000 });
  });
});
