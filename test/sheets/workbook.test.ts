import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import yazl from 'yazl';

import { parseMappingFile } from '../../src/orders/mapping.js';
import { SheetError } from '../../src/sheets/errors.js';
import { readRecords } from '../../src/sheets/records.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';
import { type WorksheetSpec, writeWorkbook } from '../helpers/workbooks.js';

const dir = await tempDir('workbook-');
const HEADER = ['reference', 'city', 'postal_code'];

async function book(name: string, sheets: WorksheetSpec[]): Promise<string> {
  return writeWorkbook(join(dir, name), sheets);
}

async function records(path: string, worksheet?: string) {
  const mapping =
    worksheet === undefined
      ? undefined
      : parseMappingFile({ worksheet }, { kind: 'flag', file: join(dir, 'mapping.json') });
  const sheet = await readRecords(path, mapping);
  const all: SourceRecord[] = [];
  for await (const batch of sheet.batches) all.push(...batch);
  return { info: sheet.info, records: all };
}

async function zipOf(path: string, entries: Record<string, string | Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'finish');
  return path;
}

async function refusal(path: string): Promise<string> {
  const error = await records(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SheetError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

describe('a workbook’s records', () => {
  it('come from its first worksheet, the header in its first row that is not blank', async () => {
    const path = await book('first.xlsx', [
      { name: 'Orders', rows: [[], [null, null], HEADER, ['A', 'Gent', 9000], [], ['B', 'Luik']] },
      { name: 'Other', rows: [HEADER, ['X', 'Brugge', 8000]] },
    ]);
    const { info, records: all } = await records(path);
    expect(info).toMatchObject({
      format: 'xlsx',
      delimiter: ';',
      header: HEADER,
      worksheet: 'Orders',
      encoding: 'utf-8',
    });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(all.map((r) => [r.row, r.line, r.data])).toEqual([
      [1, 4, ['A', 'Gent', '9000']],
      [2, 6, ['B', 'Luik', '']],
    ]);
  });

  it('come from the mapping’s worksheet, its name matched ignoring case', async () => {
    const path = await book('second.xlsx', [
      { name: 'Orders', rows: [HEADER, ['A', 'Gent', 9000]] },
      { name: 'Batch 2', rows: [HEADER, ['X', 'Brugge', 8000], ['Y', 'Namen', 5000]] },
    ]);
    const { info, records: all } = await records(path, 'batch 2');
    expect(info.worksheet).toBe('Batch 2');
    expect(all.map((r) => (r.data as string[])[0])).toEqual(['X', 'Y']);
  });

  it('name the worksheets there are when the mapping’s is not one of them', async () => {
    const path = await book('missing.xlsx', [
      { name: 'Orders', rows: [HEADER] },
      { name: 'Notes', rows: [HEADER] },
    ]);
    await expect(records(path, 'Bestellingen')).rejects.toThrow(
      /no worksheet "Bestellingen".*its worksheets are "Orders", "Notes"/,
    );
  });

  it('make a cell that shows an error a problem of its row, naming the cell', async () => {
    const path = await book('errors.xlsx', [
      { name: 'Orders', rows: [HEADER, ['A', { error: '#N/A' }, 9000], ['B', 'Gent', 9000]] },
    ]);
    const { records: all } = await records(path);
    expect(all[0]?.problem).toMatch(/#N\/A in cell B2/);
    expect(all[1]?.problem).toBeUndefined();
  });

  it('are refused when the header names no field, like a CSV’s', async () => {
    const path = await book('nofield.xlsx', [
      {
        name: 'O',
        rows: [
          ['a', 'b'],
          ['1', '2'],
        ],
      },
    ]);
    await expect(records(path)).rejects.toThrow(SheetError);
  });

  it('keep a cell beyond the header, for validation to name', async () => {
    const path = await book('wide.xlsx', [
      { name: 'Orders', rows: [HEADER, ['A', 'Gent', 9000, null, 'stray']] },
    ]);
    const { records: all } = await records(path);
    expect(all[0]?.data).toEqual(['A', 'Gent', '9000', '', 'stray']);
  });
});

describe('a workbook refused, in one plain line', () => {
  it.each([
    ['orders.xls', /old-style Excel workbook \(\.xls\).*save it as \.xlsx or CSV/],
    ['orders.ods', /OpenDocument spreadsheet.*save it as \.xlsx or CSV/],
  ])('%s', async (name, message) => {
    expect(await refusal(await put(dir, name, 'whatever'))).toMatch(message);
  });

  it('that is empty, or holds only a header', async () => {
    expect(await refusal(await put(dir, 'zero.xlsx', ''))).toMatch(/empty/);
    const blank = await book('blank.xlsx', [{ name: 'Orders', rows: [] }]);
    expect(await refusal(blank)).toMatch(/the sheet is empty/);
    const headerOnly = await book('header.xlsx', [{ name: 'Orders', rows: [HEADER] }]);
    expect((await records(headerOnly)).records).toEqual([]);
  });

  it('that is no zip, or a cut-off one', async () => {
    expect(await refusal(await put(dir, 'text.xlsx', 'reference;city\nA;Gent\n'))).toMatch(
      /not an Excel workbook/,
    );
    const whole = await readFile(await book('whole.xlsx', [{ name: 'O', rows: [HEADER] }]));
    const cut = await put(dir, 'cut.xlsx', whole.subarray(0, Math.floor(whole.length / 2)));
    expect(await refusal(cut)).toMatch(/damaged or incomplete/);
  });

  it('whose compressed data is damaged, without hanging', async () => {
    const rows = [HEADER, ...Array.from({ length: 2000 }, (_, i) => [`R${i}`, 'Gent', i])];
    const whole = await readFile(await book('big.xlsx', [{ name: 'O', rows }]));
    const broken = Buffer.from(whole);
    const at = broken.indexOf('xl/worksheets/sheet1.xml') + 200;
    for (let i = at; i < at + 400; i++) broken[i] = (broken[i] ?? 0) ^ 0x5a;
    const message = await refusal(await put(dir, 'broken.xlsx', broken));
    expect(message).toMatch(/workbook cannot be read|damaged/);
  });

  it('that is a zip without a workbook, or an OpenDocument file renamed', async () => {
    const zip = await zipOf(join(dir, 'plain.xlsx'), { 'readme.txt': 'hello' });
    expect(await refusal(zip)).toMatch(/zip file without a workbook/);
    const ods = await zipOf(join(dir, 'ods.xlsx'), { mimetype: 'x', 'content.xml': '<x/>' });
    expect(await refusal(ods)).toMatch(/OpenDocument \(\.ods\)/);
  });

  it('that is password-protected (an OLE container)', async () => {
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096)]);
    expect(await refusal(await put(dir, 'secret.xlsx', ole))).toMatch(/password-protected/);
  });
});

it('reads an .xlsm for its values', async () => {
  const path = await book('macros.xlsx', [{ name: 'O', rows: [HEADER, ['A', 'Gent', 9000]] }]);
  const xlsm = join(dir, 'macros.xlsm');
  await writeFile(xlsm, await readFile(path));
  expect((await records(xlsm)).records).toHaveLength(1);
});
