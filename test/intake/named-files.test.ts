import { describe, expect, it } from 'vitest';

import { filesNamedIn } from '../../src/intake/named-files.js';
import { SheetError } from '../../src/sheets/errors.js';
import { put, tempDir } from '../helpers/files.js';

describe('filesNamedIn', () => {
  it('lists the files cell of every CSV row, valid or not, each once, split as validation splits it', async () => {
    const dir = await tempDir('named-files-');
    const sheet = await put(
      dir,
      'orders.csv',
      [
        'reference;city;files',
        'A-1;Gent;docs\\plan.pdf | docs/epc.pdf',
        'A-2;;docs/plan.pdf', // no city: invalid, yet its files are carried along
        'A-3;Gent;',
      ].join('\n'),
    );
    expect((await filesNamedIn(sheet)).sort()).toEqual(['docs/epc.pdf', 'docs/plan.pdf']);
  });

  it('reads the files of JSON objects, as a list or a string, and skips a record that is no object', async () => {
    const dir = await tempDir('named-files-');
    const array = await put(
      dir,
      'orders.json',
      JSON.stringify([
        { files: ['a.pdf', 'b.pdf'] },
        { files: 'c.pdf|a.pdf' },
        [1, 2],
        { files: 7 },
      ]),
    );
    expect((await filesNamedIn(array)).sort()).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    const lines = await put(dir, 'orders.ndjson', '{"files":"d.pdf"}\nnot json\n{"city":"Gent"}\n');
    expect(await filesNamedIn(lines)).toEqual(['d.pdf']);
  });

  it('fails with a SheetError on a sheet that cannot be read, as the sheet job would', async () => {
    const dir = await tempDir('named-files-');
    const broken = await put(dir, 'broken.csv', 'city,remark\nGent,"never closed\n');
    await expect(filesNamedIn(broken)).rejects.toThrow(/line 2: a quoted cell is never closed/);
    const nameless = await put(dir, 'nameless.csv', 'colour,size\nred,3\n');
    await expect(filesNamedIn(nameless)).rejects.toBeInstanceOf(SheetError);
    const empty = await put(dir, 'empty.json', '[]');
    await expect(filesNamedIn(empty)).rejects.toBeInstanceOf(SheetError);
  });
});
