/**
 * Workbooks made part by part, for the cases no library writes: the parts in any order, a decoy
 * part, a bomb. `workbookParts` gives the parts of a plain workbook as zip entries (helpers/zip.ts
 * writes them); a test reorders, drops or spoils them.
 */
import { constants, deflateRawSync } from 'node:zlib';

import { repeatedCrc32 } from './crc.js';
import type { RawEntry } from './zip.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface PartsSpec {
  /** Each worksheet's name and its `<sheetData>` content. */
  sheets: { name: string; rows: string }[];
  /** The shared strings' `<si>` elements, when there is such a part. */
  sharedStrings?: string;
  /** The styles part's content inside `<styleSheet>`, when there is such a part. */
  styles?: string;
  date1904?: boolean;
  /** Where the workbook part lives (default `xl/workbook.xml`). */
  workbookPath?: string;
}

export function sheetXml(rows: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;
}

/** A row of inline-string cells, with `r` references. */
export function inlineRow(line: number, cells: readonly string[]): string {
  const xml = cells.map(
    (text, i) =>
      `<c r="${String.fromCharCode(65 + i)}${line}" t="inlineStr"><is><t>${text}</t></is></c>`,
  );
  return `<row r="${line}">${xml.join('')}</row>`;
}

/** The parts of a workbook, in the order Excel writes them but for the shared strings. */
export function workbookParts(spec: PartsSpec): RawEntry[] {
  const book = spec.workbookPath ?? 'xl/workbook.xml';
  const folder = book.slice(0, book.lastIndexOf('/') + 1);
  const file = book.slice(folder.length);
  const rels = spec.sheets.map(
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  if (spec.sharedStrings !== undefined)
    rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  if (spec.styles !== undefined)
    rels.push(`<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>`);
  const sheets = spec.sheets.map(
    (sheet, i) =>
      `<sheet name="${sheet.name}" sheetId="${i + 1}" xmlns:r="${REL}" r:id="rId${i + 1}"/>`,
  );
  const entries: RawEntry[] = [
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${book}"/></Relationships>`,
    },
    {
      name: book,
      data: `<workbook xmlns="${MAIN}" xmlns:r="${REL}">${spec.date1904 === true ? '<workbookPr date1904="1"/>' : ''}<sheets>${sheets.join('')}</sheets></workbook>`,
    },
    {
      name: `${folder}_rels/${file}.rels`,
      data: `<Relationships xmlns="${PKG}">${rels.join('')}</Relationships>`,
    },
    ...spec.sheets.map((sheet, i) => ({
      name: `${folder}worksheets/sheet${i + 1}.xml`,
      data: sheetXml(sheet.rows),
    })),
  ];
  if (spec.styles !== undefined)
    entries.push({
      name: `${folder}styles.xml`,
      data: `<styleSheet xmlns="${MAIN}">${spec.styles}</styleSheet>`,
    });
  if (spec.sharedStrings !== undefined)
    entries.push({
      name: `${folder}sharedStrings.xml`,
      data: `<sst xmlns="${MAIN}">${spec.sharedStrings}</sst>`,
    });
  return entries;
}

/**
 * `times` copies of `chunk`, deflated in a second: the chunk is deflated once, from a fresh
 * state and flushed to a byte boundary, so its deflated bytes can simply be repeated; their
 * checksum too is found without reading the copies (helpers/crc.ts).
 */
export function repeatedDeflate(
  chunk: string,
  times: number,
): { packed: Buffer; size: number; crc: number } {
  const one = Buffer.from(chunk);
  const piece = deflateRawSync(one, { finishFlush: constants.Z_SYNC_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0));
  const crc = repeatedCrc32(one, times);
  const pieces = Array.from({ length: times }, () => piece);
  return { packed: Buffer.concat([...pieces, last]), size: one.length * times, crc };
}
