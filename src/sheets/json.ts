import { MAX_NESTING, nestsDeeperThan } from '../orders/json-depth.js';
import { decodedStream } from './decode.js';
import { SheetError } from './errors.js';
import { said } from './said.js';
import type { SheetScan } from './scan.js';
import type { SourceRecord } from './types.js';

/** One element of a JSON array larger than this is not an order: refuse rather than buffer it. */
const MAX_ELEMENT_CHARS = 1024 * 1024;

/**
 * The elements of a JSON array sheet, a batch per chunk read: the file is cut at the array's
 * top-level commas as it streams in, so only one element is ever held in memory whole.
 */
export async function* readJsonArray(
  path: string,
  scan: SheetScan,
): AsyncGenerator<SourceRecord[]> {
  const splitter = new ArraySplitter();
  let row = 0;
  for await (const chunk of decodedStream(path, scan) as AsyncIterable<string>) {
    const batch: SourceRecord[] = [];
    for (const element of splitter.push(chunk)) {
      row += 1;
      batch.push(toRecord(row, null, element.text, element.line));
    }
    if (batch.length > 0) yield batch;
  }
  splitter.end();
  if (row === 0) throw new SheetError(said('sheets.json.emptyArray'));
}

/** The lines of an NDJSON sheet, one object each, a batch per chunk read; blank lines are skipped. */
export async function* readNdjson(path: string, scan: SheetScan): AsyncGenerator<SourceRecord[]> {
  let carry = '';
  let line = 0;
  let row = 0;
  const take = (text: string, batch: SourceRecord[]) => {
    line += 1;
    if (text.trim() === '') return;
    row += 1;
    batch.push(toRecord(row, line, text, line));
  };
  for await (const chunk of decodedStream(path, scan) as AsyncIterable<string>) {
    const parts = (carry + chunk).split('\n');
    carry = parts.pop() ?? '';
    if (carry.length > MAX_ELEMENT_CHARS) {
      throw new SheetError(said('sheets.json.lineTooLarge'), line + 1);
    }
    const batch: SourceRecord[] = [];
    for (const text of parts) take(text, batch);
    if (batch.length > 0) yield batch;
  }
  const last: SourceRecord[] = [];
  take(carry, last);
  if (last.length > 0) yield last;
  if (row === 0) throw new SheetError(said('sheets.json.allBlank'));
}

function toRecord(row: number, line: number | null, text: string, textLine: number): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    if (line === null) {
      const broken = said('sheets.json.broken', { order: String(row), detail: error.message });
      throw new SheetError(broken, textLine, { cause: error });
    }
    return { row, line, data: {}, problem: `this line is not valid JSON (${error.message}).` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
    return { row, line, data: {}, problem: `each order must be a JSON object ({…}), not ${what}.` };
  }
  if (nestsDeeperThan(value, MAX_NESTING)) {
    const problem = `row ${row} nests objects or lists more than ${MAX_NESTING} levels deep; an order needs only a few levels: flatten it.`;
    return { row, line, data: {}, problem };
  }
  return { row, line, data: value as Record<string, unknown> };
}

type State = 'before-array' | 'between' | 'after-comma' | 'in-element' | 'after-array';

/**
 * Cuts the text of a JSON array into the texts of its elements. It follows strings, escapes and
 * nesting only; each element's own syntax is left to JSON.parse.
 */
export class ArraySplitter {
  #state: State = 'before-array';
  #line = 1;
  #element = '';
  #elementLine = 1;
  #depth = 0;
  #inString = false;
  #escaped = false;

  *push(chunk: string): Generator<{ text: string; line: number }> {
    let start = -1; // where the current element began in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk.charAt(i);
      if (this.#state === 'in-element') {
        if (start === -1) start = i;
        if (this.#inString) {
          if (this.#escaped) this.#escaped = false;
          else if (ch === '\\') this.#escaped = true;
          else if (ch === '"') this.#inString = false;
          else if (ch === '\n') this.#line += 1;
          continue;
        }
        if (ch === '"') this.#inString = true;
        else if (ch === '{' || ch === '[') this.#depth += 1;
        else if (ch === '}' || ch === ']') {
          if (this.#depth === 0) {
            // the array's own `]` right after an element without a comma
            this.#element += chunk.slice(start, i);
            yield this.#finish();
            start = -1;
            this.#state = 'after-array';
            continue;
          }
          this.#depth -= 1;
        } else if (ch === ',' && this.#depth === 0) {
          this.#element += chunk.slice(start, i);
          yield this.#finish();
          start = -1;
          this.#state = 'after-comma';
          continue;
        } else if (ch === '\n') this.#line += 1;
        continue;
      }
      if (ch === '\n') {
        this.#line += 1;
        continue;
      }
      if (ch === ' ' || ch === '\t' || ch === '\r') continue;
      if (this.#between(ch)) {
        start = i;
        i -= 1; // read this character again as the element's first
      }
    }
    if (this.#state === 'in-element' && start !== -1) {
      this.#element += chunk.slice(start);
      if (this.#element.length > MAX_ELEMENT_CHARS) {
        throw new SheetError(said('sheets.json.orderTooLarge'), this.#elementLine);
      }
    }
  }

  end(): void {
    if (this.#state === 'before-array') throw new SheetError(said('sheets.json.empty'));
    if (this.#state !== 'after-array') {
      throw new SheetError(said('sheets.json.notClosed'), this.#line);
    }
  }

  /** Reads a character outside any element; true when it starts one. */
  #between(ch: string): boolean {
    switch (this.#state) {
      case 'before-array':
        if (ch !== '[') {
          const example = '{…}, {…}';
          throw new SheetError(said('sheets.json.notArray', { example }), this.#line);
        }
        this.#state = 'between';
        return false;
      case 'between':
        if (ch === ']') {
          this.#state = 'after-array';
          return false;
        }
        this.#begin();
        return true;
      case 'after-comma':
        if (ch === ']' || ch === ',') {
          throw new SheetError(said('sheets.json.afterComma', { character: ch }), this.#line);
        }
        this.#begin();
        return true;
      case 'after-array':
        throw new SheetError(said('sheets.json.textAfterEnd'), this.#line);
      case 'in-element':
        return false;
    }
  }

  #begin(): void {
    this.#state = 'in-element';
    this.#element = '';
    this.#elementLine = this.#line;
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
  }

  #finish(): { text: string; line: number } {
    const element = { text: this.#element, line: this.#elementLine };
    this.#element = '';
    return element;
  }
}
