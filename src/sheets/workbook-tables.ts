/**
 * The two tables a worksheet's cells point into: the shared strings (each `<si>`'s text, its rich
 * text runs joined, its phonetic runs `<rPh>` left out, as Excel shows the cell; read with the
 * scanner of workbook-scan.ts, as they may be large) and the styles (for each cell style, whether
 * its number format shows a date; read with saxes).
 */
import { isDateFormat } from './cell-text.js';
import { said } from './said.js';
import { MAX_PART_BYTES } from './workbook-parts.js';
import { type ScanHandlers, scanXml } from './workbook-scan.js';
import { readXml } from './workbook-xml.js';
import type { WorkbookZip } from './workbook-zip.js';

/** Excel's built-in number formats that show a date or a time (ids 14–22 and 45–47). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/**
 * The shared strings as one flat text and where each ends: a workbook of 100,000 rows has some
 * 400,000 of them, and as many strings of their own (each a slice that keeps alive the whole
 * chunk of XML it was cut from) they took 30 MB of the worker's heap; this way they take the
 * text's size plus 4 bytes each. A cell's text is cut from it when its row is read.
 */
export class SharedStrings {
  constructor(
    private readonly text: string,
    private readonly ends: Uint32Array,
    readonly count: number,
  ) {}

  static readonly none = new SharedStrings('', new Uint32Array(0), 0);

  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    return this.text.slice(index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
  }
}

/** Collects texts into a few flat strings as they come, their ends in a growing array. */
class SharedStringsBuilder {
  #blocks: string[] = [];
  #pending: string[] = [];
  #length = 0;
  #ends = new Uint32Array(1024);
  #count = 0;

  add(text: string): void {
    if (this.#count === this.#ends.length) {
      const grown = new Uint32Array(this.#ends.length * 2);
      grown.set(this.#ends);
      this.#ends = grown;
    }
    this.#length += text.length;
    this.#ends[this.#count] = this.#length;
    this.#count += 1;
    this.#pending.push(text);
    // Joined now and then: a join is one flat string, and the chunks sliced are let go.
    if (this.#pending.length >= 4096) this.#blocks.push(this.#pending.splice(0).join(''));
  }

  build(): SharedStrings {
    this.#blocks.push(this.#pending.splice(0).join(''));
    return new SharedStrings(this.#blocks.join(''), this.#ends, this.#count);
  }
}

/** The shared strings of the part `part`. */
export async function readSharedStrings(zip: WorkbookZip, part: string): Promise<SharedStrings> {
  const texts = new SharedStringsBuilder();
  let text = '';
  let inText = false;
  let phonetic = 0;
  const chunks = zip.chunks(
    part,
    MAX_PART_BYTES.sharedStrings,
    said('sheets.workbook.part.named', { part: 'sharedStrings.xml' }),
  );
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
      else if (name === 'si') texts.add(text);
    },
  };
  for await (const _ of scanXml(chunks, handlers));
  return texts.build();
}

/** For each cell style (`cellXfs`, by index), whether its number format shows a date. */
export async function readDateStyles(zip: WorkbookZip, part: string): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const formats: number[] = [];
  let inCellXfs = false;
  await readXml(
    zip.chunks(
      part,
      MAX_PART_BYTES.styles,
      said('sheets.workbook.part.named', { part: 'styles.xml' }),
    ),
    part,
    {
      open: (name, a) => {
        if (name === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '');
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) formats.push(Number(a.numFmtId ?? 0));
      },
      close: (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
    },
  );
  return formats.map((id) => {
    const code = custom.get(id);
    return code === undefined ? BUILT_IN_DATES.has(id) : isDateFormat(code);
  });
}
