/**
 * Workbooks made to hurt: each is refused in one plain line, within seconds, and leaves nothing
 * behind in the temporary folder (the reader writes no file at all).
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SheetError } from '../../src/sheets/errors.js';
import { readRecords } from '../../src/sheets/records.js';
import { crc32Joined, repeatedCrc32 } from '../helpers/crc.js';
import { put, tempDir } from '../helpers/files.js';
import { inlineRow, repeatedDeflate, workbookParts } from '../helpers/xlsx-parts.js';
import { type RawEntry, rawZip } from '../helpers/zip.js';

const dir = await tempDir('workbook-hostile-');
const HEADER = ['reference', 'city', 'postal_code'];
const plain = () =>
  workbookParts({
    sheets: [{ name: 'O', rows: `${inlineRow(1, HEADER)}${inlineRow(2, ['A', 'Gent', '9000'])}` }],
  });

// The reader runs with TMPDIR pointing at a folder of its own, which must stay empty.
let ownTmp: string;
const before = process.env.TMPDIR;
beforeAll(async () => {
  ownTmp = await mkdtemp(join(tmpdir(), 'workbook-tmpdir-'));
  process.env.TMPDIR = ownTmp;
});
afterAll(() => {
  if (before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = before;
});

let made = 0;
async function refusal(entries: RawEntry[]): Promise<string> {
  made += 1;
  const path = await put(dir, `hostile-${made}.xlsx`, rawZip(entries));
  const error = await (async () => {
    const sheet = await readRecords(path);
    for await (const _ of sheet.batches);
  })().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SheetError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/holds no worksheet/);
  expect(await readdir(ownTmp)).toEqual([]);
  return message;
}

const textOf = (entry: RawEntry) => String(entry.data ?? '');

/** The plain workbook with its worksheet replaced. */
function withSheet(sheet: Partial<RawEntry>): RawEntry[] {
  return plain().map((entry) =>
    entry.name === 'xl/worksheets/sheet1.xml' ? { ...entry, ...sheet } : entry,
  );
}

const ROW =
  '<row><c t="inlineStr"><is><t>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</t></is></c></row>';
/** A worksheet of about 1 GB of rows that deflates to about 1 MB. */
function bomb(): { packed: Buffer; size: number; crc: number } {
  const chunk = `${ROW}${' '.repeat((1 << 20) - ROW.length)}`;
  return repeatedDeflate(chunk, 1000);
}

describe('a hostile workbook is refused in one plain line, nothing left behind', () => {
  it('a worksheet that inflates to 1 GB from 1 MB, declared so', { timeout: 30_000 }, async () => {
    const { packed, size, crc } = bomb();
    expect(packed.length).toBeLessThan(2 << 20);
    const message = await refusal(withSheet({ packed, size, crc, data: undefined }));
    expect(message).toMatch(/worksheet .*MB once unpacked/);
  });

  it(
    'a worksheet that inflates to 1 GB from 1 MB, declared small',
    { timeout: 30_000 },
    async () => {
      const { packed, crc } = bomb();
      expect(await refusal(withSheet({ packed, size: 200_000, crc }))).toMatch(/damaged/);
    },
  );

  it('shared strings that inflate past what is kept in memory', { timeout: 30_000 }, async () => {
    const { packed, size, crc } = repeatedDeflate('<si><t>x</t></si>'.repeat(60_000), 200);
    const entries: RawEntry[] = [...plain(), { name: 'xl/sharedStrings.xml', packed, size, crc }];
    const rels = entries[2] ?? { name: '' };
    entries[2] = {
      ...rels,
      data: textOf(rels).replace(
        '</Relationships>',
        '<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
      ),
    };
    expect(await refusal(entries)).toMatch(/sharedStrings\.xml .*MB once unpacked/);
  });

  it('a listed part whose deflate data is broken', async () => {
    expect(await refusal(withSheet({ packed: Buffer.alloc(7 * 1024, 0xff) }))).toMatch(/damaged/);
  });

  it('a part whose checksum is wrong', async () => {
    expect(await refusal(withSheet({ crc: 12345 }))).toMatch(/damaged/);
  });

  it('two entries of one name', async () => {
    const entries = plain();
    const sheet = entries.at(-1) ?? { name: '' };
    const other = { ...sheet, data: textOf(sheet).replace('Gent', 'Luik') };
    expect(await refusal([...entries, other])).toMatch(
      /two parts named xl\/worksheets\/sheet1\.xml/,
    );
  });

  it('an encrypted part, or one packed in a way Excel does not use', async () => {
    expect(await refusal(withSheet({ flags: 0x801 }))).toMatch(/encrypted|password/);
    expect(await refusal(withSheet({ method: 12 }))).toMatch(/packed in a way Excel does not use/);
  });

  it('a relationship that points outside the zip, or at nothing', async () => {
    const entries = plain().map((entry) =>
      entry.name === 'xl/_rels/workbook.xml.rels'
        ? {
            ...entry,
            data: textOf(entry).replace('worksheets/sheet1.xml', '../../../etc/passwd'),
          }
        : entry,
    );
    expect(await refusal(entries)).toMatch(/damaged|no part/);
  });

  it('a worksheet that is not XML', async () => {
    expect(
      await refusal(withSheet({ data: '<worksheet><sheetData><row><c><v>1</c></row>' })),
    ).toMatch(/damaged/);
  });
});

describe("a bomb's checksum, found without reading its copies", () => {
  it("is zlib's checksum of the copies read byte by byte", () => {
    for (const [chunk, times] of [
      ['<row/>', 0],
      ['<row/>', 1],
      ['<row/>', 2],
      ['<row/>', 7],
      [ROW, 1000],
      ['x'.repeat(65_537), 37],
    ] as const) {
      const one = Buffer.from(chunk);
      const copies = Buffer.concat(Array.from({ length: times }, () => one));
      expect(repeatedCrc32(one, times), `${times} × ${one.length} bytes`).toBe(crc32(copies));
    }
    expect(crc32Joined(crc32('order '), crc32('importer'), 8)).toBe(crc32('order importer'));
  });
});
