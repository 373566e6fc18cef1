import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';

import { openCsv } from '../../src/sheets/csv.js';
import { SheetError } from '../../src/sheets/errors.js';
import { scanSheet } from '../../src/sheets/scan.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';

const dir = await tempDir('csv-');
let n = 0;

async function read(content: string | Buffer) {
  const path = await put(dir, `sheet-${(n += 1)}.csv`, content);
  const csv = await openCsv(path, await scanSheet(path));
  const records: SourceRecord[] = [];
  for await (const batch of csv.batches) records.push(...batch);
  return { ...csv, records };
}

async function failure(content: string | Buffer): Promise<SheetError> {
  const error = await read(content).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SheetError);
  return error as SheetError;
}

describe('openCsv', () => {
  it('reads a comma-separated sheet with its header', async () => {
    const csv = await read('city,postal_code\nGent,9000\nLeuven,3000\n');
    expect(csv.delimiter).toBe(',');
    expect(csv.header).toEqual(['city', 'postal_code']);
    expect(csv.records).toEqual([
      { row: 1, line: 2, data: ['Gent', '9000'] },
      { row: 2, line: 3, data: ['Leuven', '3000'] },
    ]);
  });

  it('reads Excel on Belgian Windows: semicolons, Windows-1252, CRLF', async () => {
    const csv = await read(
      iconv.encode('Stad;Opmerking\r\nLiège;prijs 12 €\r\nGent;“citaat”\r\n', 'win1252'),
    );
    expect(csv.delimiter).toBe(';');
    expect(csv.records.map((r) => r.data)).toEqual([
      ['Liège', 'prijs 12 €'],
      ['Gent', '“citaat”'],
    ]);
  });

  it('reads tab-separated sheets and a file without a final line break', async () => {
    const csv = await read('a\tb\n1\t2');
    expect(csv.delimiter).toBe('\t');
    expect(csv.records).toEqual([{ row: 1, line: 2, data: ['1', '2'] }]);
  });

  it('strips a byte-order mark from the first column name', async () => {
    const csv = await read('\uFEFFreference,city\nR1,Gent\n');
    expect(csv.header).toEqual(['reference', 'city']);
  });

  it('keeps delimiters, doubled quotes and line breaks inside quoted cells', async () => {
    const csv = await read('a,b\n"x, y","say ""hi"""\n"two\nlines",z\nlast,row\n');
    expect(csv.records).toEqual([
      { row: 1, line: 2, data: ['x, y', 'say "hi"'] },
      { row: 2, line: 3, data: ['two\nlines', 'z'] },
      { row: 3, line: 5, data: ['last', 'row'] },
    ]);
  });

  it('counts lines right after a CRLF inside a quoted cell', async () => {
    const csv = await read('a;b\r\n"one\r\ntwo";x\r\n\r\n3;4\r\n');
    expect(csv.records.map((r) => [r.row, r.line])).toEqual([
      [1, 2],
      [2, 5],
    ]);
  });

  it("skips blank lines and Excel's empty rows, without counting them as rows", async () => {
    const csv = await read('a;b\n\n1;2\n;;\n  ;  \n3;4\n\n');
    expect(csv.records).toEqual([
      { row: 1, line: 3, data: ['1', '2'] },
      { row: 2, line: 6, data: ['3', '4'] },
    ]);
  });

  it('takes the first non-blank line as the header', async () => {
    const csv = await read('\n\ncity\nGent\n');
    expect(csv.header).toEqual(['city']);
    expect(csv.headerLine).toBe(3);
    expect(csv.records).toEqual([{ row: 1, line: 4, data: ['Gent'] }]);
  });

  it("obeys Excel's sep= line", async () => {
    const csv = await read('sep=;\r\na,1;b\r\nx,2;y\r\n');
    expect(csv.delimiter).toBe(';');
    expect(csv.header).toEqual(['a,1', 'b']);
    expect(csv.records).toEqual([{ row: 1, line: 3, data: ['x,2', 'y'] }]);
  });

  it('keeps a stray quote inside an unquoted cell', async () => {
    const csv = await read('remark,b\nscreen 12" wide,2\n');
    expect(csv.records[0]?.data).toEqual(['screen 12" wide', '2']);
  });

  it('gives rows of other widths as they are', async () => {
    const csv = await read('a,b,c\n1\n1,2,3,4\n');
    expect(csv.records.map((r) => r.data)).toEqual([['1'], ['1', '2', '3', '4']]);
  });

  it('refuses a quote that is never closed, naming the line', async () => {
    const error = await failure('a,b\n1,2\n3,"open\n4,5\n');
    expect(error.message).toMatch(/^line \d+: a quoted cell is never closed/);
  });

  it('keeps a cell with text after its closing quote as written', async () => {
    const csv = await read('a,b\n1,"x"y\n');
    expect(csv.records[0]?.data).toEqual(['1', '"x"y']);
  });

  it('refuses a runaway cell before it fills the memory', async () => {
    const error = await failure(`a,b\n1,"${'x'.repeat(1_100_000)}`);
    expect(error.message).toMatch(/larger than 1 MB/);
  });

  it('refuses a sheet of blank lines', async () => {
    expect((await failure('\n\n;;\n')).message).toMatch(/no header row/);
  });

  it('reads a large sheet in batches, every row once and in order', async () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => `${i + 1},"r\n${i + 1}"`);
    const csv = await read(`n,text\n${rows.join('\n')}\n`);
    expect(csv.records).toHaveLength(25_000);
    expect(
      csv.records.every((r, i) => r.row === i + 1 && (r.data as string[])[0] === String(i + 1)),
    ).toBe(true);
    expect(csv.records.at(-1)?.line).toBe(2 + 2 * 24_999);
  });

  it('reads UTF-8 characters of every length whole, wherever the reads of the file cut them', async () => {
    // Rows of 1- to 4-byte characters, each row one byte longer than the last: over the reads
    // of 64 KiB, characters and cells start at every offset, and some are cut between two reads.
    const cells = Array.from({ length: 6000 }, (_, i) => `${'a'.repeat(i % 5)}é€😀 日本 "${i}"`);
    const csv = await read(
      `n,text\n${cells.map((c, i) => `${i},"${c.replace(/"/g, '""')}"`).join('\n')}\n`,
    );
    expect(csv.records.map((r) => (r.data as string[])[1])).toEqual(cells);
  });

  it('drops the quote the reports put before a formula character, and only that one', async () => {
    const csv = await read(
      [
        "reference;'=name;remark",
        "'=1+1;'-5;'+32 470 12 34 56",
        "''=x;'@SUM(A1);'s-Hertogenbosch",
        "=raw;-7;'x",
      ].join('\r\n'),
    );
    expect(csv.header).toEqual(['reference', '=name', 'remark']);
    expect(csv.records.map((r) => r.data)).toEqual([
      ['=1+1', '-5', '+32 470 12 34 56'],
      ["'=x", '@SUM(A1)', "'s-Hertogenbosch"],
      ['=raw', '-7', "'x"],
    ]);
  });
});
