/**
 * Workbooks from other producers than exceljs, read as Excel shows them: openpyxl's (inline
 * strings, absolute relationship targets, the workbook part after the worksheet, the 1904 date
 * system) and hand-made ones for what the standard allows and no library at hand writes.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { parseMappingFile } from '../../src/orders/mapping.js';
import { readRecords } from '../../src/sheets/records.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';
import { writeOpenpyxl } from '../helpers/openpyxl.js';
import { inlineRow, type PartsSpec, workbookParts } from '../helpers/xlsx-parts.js';
import { type RawEntry, rawZip } from '../helpers/zip.js';

const dir = await tempDir('workbook-producers-');
const HEADER = ['reference', 'city', 'postal_code'];

async function read(path: string, worksheet?: string) {
  const mapping =
    worksheet === undefined
      ? undefined
      : parseMappingFile({ worksheet }, { kind: 'flag', file: join(dir, 'mapping.json') });
  const sheet = await readRecords(path, mapping);
  const all: SourceRecord[] = [];
  for await (const batch of sheet.batches) all.push(...batch);
  return { info: sheet.info, records: all };
}

const rowsOf = (records: SourceRecord[]) => records.map((r) => [r.line, r.data]);

let made = 0;
async function zipped(entries: RawEntry[]): Promise<string> {
  made += 1;
  return put(dir, `made-${made}.xlsx`, rawZip(entries));
}
const parts = (spec: PartsSpec) => workbookParts(spec);
const header = inlineRow(1, HEADER);

describe('a workbook written by openpyxl', () => {
  it('reads its inline strings, numbers, booleans and dates from its first worksheet', async () => {
    const path = await writeOpenpyxl(join(dir, 'openpyxl.xlsx'), [
      {
        name: 'Orders',
        rows: [
          [],
          [...HEADER, 'due', 'checked', 'remark'],
          ['A', 'Gent', 9000, { date: '2026-12-01' }, true, 12.5],
          [],
          ['B', null, 1000, { datetime: '2026-12-01T14:30:05' }, false, 'x & <y>'],
        ],
      },
      { name: 'Other', rows: [HEADER, ['X', 'Brugge', 8000]] },
    ]);
    const { info, records } = await read(path);
    expect(info).toMatchObject({
      worksheet: 'Orders',
      header: [...HEADER, 'due', 'checked', 'remark'],
    });
    expect(rowsOf(records)).toEqual([
      [3, ['A', 'Gent', '9000', '2026-12-01', 'TRUE', '12.5']],
      [5, ['B', '', '1000', '2026-12-01 14:30:05', 'FALSE', 'x & <y>']],
    ]);
  });

  it('reads the mapping’s worksheet of several', async () => {
    const path = await writeOpenpyxl(join(dir, 'several.xlsx'), [
      { name: 'Uitleg', rows: [['Vul het tweede blad in.']] },
      { name: 'Bestellingen', rows: [HEADER, ['X', 'Brugge', 8000]] },
      { name: 'Derde', rows: [HEADER, ['Y', 'Namen', 5000]] },
    ]);
    const { info, records } = await read(path, 'bestellingen');
    expect(info.worksheet).toBe('Bestellingen');
    expect(rowsOf(records)).toEqual([[2, ['X', 'Brugge', '8000']]]);
  });

  it('reads the dates of a workbook in the 1904 date system', async () => {
    const path = await writeOpenpyxl(
      join(dir, 'mac.xlsx'),
      [
        {
          name: 'O',
          rows: [
            [...HEADER, 'due'],
            ['A', 'Gent', 9000, { datetime: '2026-12-01T08:15:00' }],
          ],
        },
      ],
      { date1904: true },
    );
    expect(rowsOf((await read(path)).records)).toEqual([
      [2, ['A', 'Gent', '9000', '2026-12-01 08:15:00']],
    ]);
  });
});

describe('a hand-made workbook', () => {
  it('reads shared strings written as the zip’s last entry', async () => {
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"><v>4</v></c><c r="C2"><v>9000</v></c></row>`,
          },
        ],
        sharedStrings: ['reference', 'city', 'postal_code', 'A', 'Gent']
          .map((t) => `<si><t>${t}</t></si>`)
          .join(''),
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([[2, ['A', 'Gent', '9000']]]);
  });

  it('reads rich text runs without their phonetic runs, spaces kept', async () => {
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows: `${header}<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c></row>`,
          },
        ],
        sharedStrings:
          '<si><r><t>R-</t></r><r><rPr><b/></rPr><t xml:space="preserve"> 1 </t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh></si>' +
          '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>',
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([[2, ['R- 1 ', '東京', '']]]);
  });

  it('reads cells and rows written without a reference, each after the one before', async () => {
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows:
              '<row><c t="inlineStr"><is><t>reference</t></is></c><c t="inlineStr"><is><t>city</t></is></c><c t="inlineStr"><is><t>postal_code</t></is></c></row>' +
              '<row><c t="inlineStr"><is><t>A</t></is></c><c r="C2"><v>9000</v></c></row>' +
              '<row r="5"><c r="B5" t="inlineStr"><is><t>Gent</t></is></c><c><v>1000</v></c></row><row><c><v>7</v></c></row>',
          },
        ],
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([
      [2, ['A', '', '9000']],
      [5, ['', 'Gent', '1000']],
      [6, ['7', '', '']],
    ]);
  });

  it('reads a ">" inside a quoted attribute value as part of the value, as XML allows', async () => {
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'Q',
            rows:
              header +
              `<row r="2" x="2 > 1"><c r="A2" t="inlineStr" x="a>b" y='c>"d'><is><t>R-1</t></is></c>` +
              `<c r="B2" x='>' t="inlineStr"><is><t>Gent</t></is></c><c r="C2" x=">"/></row>`,
          },
        ],
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([[2, ['R-1', 'Gent', '']]]);
  });

  it('reads every kind of cell; without a styles part a number stays a number', async () => {
    const cells =
      '<c r="A2" t="str"><f>"R"&amp;1</f><v>R1</v></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="d"><v>2026-12-01T14:30:05</v></c><c r="D2"><v>46357</v></c><c r="E2" t="n"><v>1.50</v></c>';
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows: `${inlineRow(1, [...HEADER, 'due', 'price'])}<row r="2">${cells}</row>`,
          },
        ],
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([
      [2, ['R1', 'TRUE', '2026-12-01 14:30:05', '46357', '1.5']],
    ]);
  });

  it('reads a date through the styles part, built-in or custom formats', async () => {
    const styles =
      '<numFmts count="1"><numFmt numFmtId="170" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts>' +
      '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="170"/><xf numFmtId="4"/></cellXfs>';
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows: `${header}<row r="2"><c r="A2" s="1"><v>46357</v></c><c r="B2" s="2"><v>46357.5</v></c><c r="C2" s="3"><v>46357</v></c></row>`,
          },
        ],
        styles,
      }),
    );
    expect(rowsOf((await read(path)).records)).toEqual([
      [2, ['2026-12-01', '2026-12-01 12:00:00', '46357']],
    ]);
  });

  it('makes a date outside Excel’s range, an error cell or a formula without a result a problem of its row', async () => {
    const styles = '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>';
    const path = await zipped(
      parts({
        sheets: [
          {
            name: 'O',
            rows:
              `${header}<row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c><c r="B2" s="1"><v>3000000</v></c></row>` +
              '<row r="3"><c r="A3" t="inlineStr"><is><t>B</t></is></c><c r="B3" s="1"><v>-1</v></c></row>' +
              '<row r="4"><c r="A4" t="e"><v>#N/A</v></c><c r="B4"><f>A1</f></c></row>' +
              '<row r="5"><c r="A5" t="inlineStr"><is><t>C</t></is></c><c r="B5" s="1"><v>2958465</v></c></row>',
          },
        ],
        styles,
      }),
    );
    const { records } = await read(path);
    expect(records.map((r) => r.problem)).toEqual([
      expect.stringMatching(/date .*in cell B2/),
      expect.stringMatching(/date .*in cell B3/),
      expect.stringMatching(/#N\/A in cell A4.*formula without a saved result in cell B4/),
      undefined,
    ]);
    expect(records[3]?.data).toEqual(['C', '9999-12-31', '']);
  });

  it('finds the workbook part and its worksheets through the relationships alone, in any order', async () => {
    const spec = {
      sheets: [{ name: 'O', rows: `${header}${inlineRow(2, ['A', 'Gent', '9000'])}` }],
    };
    const entries = parts({ ...spec, workbookPath: 'book/main.xml' });
    const path = await zipped([...entries].reverse());
    expect(rowsOf((await read(path)).records)).toEqual([[2, ['A', 'Gent', '9000']]]);
  });

  it('reads the worksheet the relationships name, never a decoy of the same path elsewhere', async () => {
    const real = parts({
      sheets: [{ name: 'O', rows: `${header}${inlineRow(2, ['REAL', 'Gent', '9000'])}` }],
    });
    const decoy = {
      name: 'customXml/xl/worksheets/sheet1.xml',
      data: real.at(-1)?.data?.toString().replace('REAL', 'DECOY'),
    };
    const path = await zipped([decoy, ...real]);
    expect(rowsOf((await read(path)).records)).toEqual([[2, ['REAL', 'Gent', '9000']]]);
  });

  it('never reads an entry its central directory does not list', async () => {
    const real = parts({
      sheets: [{ name: 'O', rows: `${header}${inlineRow(2, ['REAL', 'Gent', '9000'])}` }],
    });
    const sheet = real.at(-1)?.data?.toString() ?? '';
    const hidden = {
      name: 'xl/worksheets/sheet1.xml',
      data: sheet.replace('REAL', 'HIDDEN'),
      listed: false,
    };
    const broken = {
      name: 'xl/worksheets/sheet2.xml',
      packed: Buffer.alloc(7 * 1024, 0xff),
      size: 1 << 20,
      listed: false,
    };
    for (const extra of [hidden, broken]) {
      const path = await zipped([extra, ...real]);
      expect(rowsOf((await read(path)).records)).toEqual([[2, ['REAL', 'Gent', '9000']]]);
    }
  });
});
