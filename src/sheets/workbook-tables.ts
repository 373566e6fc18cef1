/**
 * The two tables a worksheet's cells point into: the shared strings (each `<si>`'s text, its rich
 * text runs joined, its phonetic runs `<rPh>` left out, as Excel shows the cell; read with the
 * scanner of workbook-scan.ts, as they may be large) and the styles (for each cell style, whether
 * its number format shows a date; read with saxes).
 */
import { isDateFormat } from './cell-text.js';
import { MAX_PART_BYTES } from './workbook-parts.js';
import { type ScanHandlers, scanXml } from './workbook-scan.js';
import { readXml } from './workbook-xml.js';
import type { WorkbookZip } from './workbook-zip.js';

/** Excel's built-in number formats that show a date or a time (ids 14–22 and 45–47). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** The shared strings, a flat array of texts. */
export async function readSharedStrings(zip: WorkbookZip, part: string): Promise<string[]> {
  const texts: string[] = [];
  let text = '';
  let inText = false;
  let phonetic = 0;
  const chunks = zip.chunks(part, MAX_PART_BYTES.sharedStrings, 'sharedStrings.xml part');
  const handlers: ScanHandlers = {
    open: (name) => {
      if (name === 'si') text = '';
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't') inText = phonetic === 0;
    },
    wantsText: () => inText,
    text: (piece) => {
      text += piece;
    },
    close: (name) => {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si') texts.push(text);
    },
  };
  for await (const _ of scanXml(chunks, handlers));
  return texts;
}

/** For each cell style (`cellXfs`, by index), whether its number format shows a date. */
export async function readDateStyles(zip: WorkbookZip, part: string): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const formats: number[] = [];
  let inCellXfs = false;
  await readXml(zip.chunks(part, MAX_PART_BYTES.styles, 'styles.xml part'), part, {
    open: (name, a) => {
      if (name === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) formats.push(Number(a.numFmtId ?? 0));
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return formats.map((id) => {
    const code = custom.get(id);
    return code === undefined ? BUILT_IN_DATES.has(id) : isDateFormat(code);
  });
}
