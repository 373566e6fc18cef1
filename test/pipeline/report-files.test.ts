import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CsvOut } from '../../src/pipeline/report-files.js';
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
