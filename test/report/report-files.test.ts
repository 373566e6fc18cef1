import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CsvOut } from '../../src/report/report-files.js';
import { openCsv } from '../../src/sheets/csv.js';
import { scanSheet } from '../../src/sheets/scan.js';
import { tempDir } from '../helpers/files.js';

const dir = await tempDir('report-files-');

describe('CsvOut', () => {
  it('puts a quote before every cell Excel would run as a formula, header included', async () => {
    const path = join(dir, 'cells.csv');
    const out = new CsvOut(path, ['reference', '=HYPERLINK("http://x")'], ';');
    await out.write(['=1+1', '+32 470 12 34 56']);
    await out.write(['-5', '@SUM(A1)']);
    await out.write(['\tx', "'=y"]);
    await out.write([-3, "'s-Hertogenbosch"]);
    await out.close();
    const lines = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toEqual([
      `reference;"'=HYPERLINK(""http://x"")"`,
      "'=1+1;'+32 470 12 34 56",
      "'-5;'@SUM(A1)",
      "'\tx;''=y",
      "'-3;'s-Hertogenbosch",
      '',
    ]);
  });

  it('quotes a cell holding any line break, so that no formula can begin a line of its own', async () => {
    const path = join(dir, 'breaks.csv');
    const out = new CsvOut(path, ['reference', 'city'], ',');
    await out.write(['INJ1\n=2+3', 'a\rb']);
    await out.write(['x\r', 'Gent']);
    await out.close();
    const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    expect(text).toBe('reference,city\r\n"INJ1\n=2+3","a\rb"\r\n"x\r",Gent\r\n');
    // Split on any line break a reader might take for one, outside quotes, no line starts a formula.
    const unquoted = text.replace(/"(?:[^"]|"")*"/g, 'Q');
    for (const line of unquoted.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@]/);
  });

  it('writes what the CSV reader gives back exactly', async () => {
    const values = [
      ['=1+1', '-5', '+32 470 12 34 56', '@x', '\tx', '\rx'],
      ["'=x", "''-y", "'s-Hertogenbosch", "'", '', 'Gent'],
    ];
    const path = join(dir, 'round-trip.csv');
    const out = new CsvOut(path, ['a', 'b', 'c', 'd', 'e', 'f'], ';');
    for (const row of values) await out.write(row);
    await out.close();
    const csv = await openCsv(path, await scanSheet(path));
    const read: unknown[] = [];
    for await (const batch of csv.batches) read.push(...batch.map((r) => r.data));
    expect(read).toEqual(values);
  });
});
