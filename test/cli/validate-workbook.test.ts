/**
 * `validate` on workbooks a user might drop (in process): a refused one is one plain line, with no
 * stack trace anywhere, and a worksheet's name is shown escaped like any text from a sheet.
 */

import { describe, expect, it } from 'vitest';

import { runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { inlineRow, repeatedDeflate, workbookParts } from '../helpers/xlsx-parts.js';
import { type RawEntry, rawZip } from '../helpers/zip.js';

const dir = await tempDir('validate-workbook-');
const HEADER = ['reference', 'city', 'postal_code'];
const rows = `${inlineRow(1, HEADER)}${inlineRow(2, ['A', 'Gent', '9000'])}`;
const sheetOf = (entries: RawEntry[]) => entries.find((e) => e.name.endsWith('sheet1.xml'));

async function hostile(): Promise<string[]> {
  const plain = workbookParts({ sheets: [{ name: 'O', rows }] });
  const bomb = repeatedDeflate(`<row/>${' '.repeat((1 << 20) - 6)}`, 1000);
  const swap = (entry: Partial<RawEntry>) =>
    plain.map((e) => (e === sheetOf(plain) ? { ...e, ...entry } : e));
  const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096)]);
  return Promise.all([
    put(dir, 'old.xls', ole),
    put(dir, 'secret.xlsx', ole),
    put(dir, 'calc.ods', 'PK whatever'),
    put(dir, 'broken.xlsx', rawZip(swap({ packed: Buffer.alloc(7 * 1024, 0xff) }))),
    put(dir, 'bomb.xlsx', rawZip(swap({ ...bomb, data: undefined }))),
    put(dir, 'twice.xlsx', rawZip([...plain, { ...(sheetOf(plain) ?? { name: '' }) }])),
    put(dir, 'cut.xlsx', rawZip(plain).subarray(0, 300)),
  ]);
}

describe('validate and a workbook', () => {
  it(
    'refuses each hostile workbook in one plain line, without a stack trace',
    { timeout: 60_000 },
    async () => {
      const paths = await hostile();
      const finished = await runInProcess(['validate', ...paths]);
      expect(finished.stderr).not.toMatch(/\n\s+at /);
      expect(finished.stdout).not.toMatch(/\n\s+at /);
      for (const path of paths) {
        const name = path.slice(dir.length + 1);
        expect(finished.stdout, name).toMatch(
          new RegExp(`${name.replace('.', '\\.')}\\n  cannot be read: [^\\n]+\\n`),
        );
      }
      expect(finished.stdout).not.toMatch(/holds no worksheet/);
      expect(finished.code).not.toBe(0);
    },
  );

  it('shows a worksheet name’s control and bidi characters escaped', async () => {
    const name = 'Orders&#x202E;txt.exe&#10;line';
    const path = await put(dir, 'bidi.xlsx', rawZip(workbookParts({ sheets: [{ name, rows }] })));
    const finished = await runInProcess(['validate', path]);
    expect(finished.stdout).not.toMatch(/[\u202e]/);
    expect(finished.stdout).toContain('Orders\\u202etxt.exe\\nline');
  });
});
