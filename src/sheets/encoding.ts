/**
 * Telling a UTF-8 sheet with a few stray bytes from a Windows-1252 one. Both are "not valid UTF-8";
 * reading the first as Windows-1252 would garble every accented name in it without a word.
 *
 * A sheet is **mostly UTF-8** when it holds bytes that are not valid UTF-8 and either starts with a
 * UTF-8 byte-order mark, or holds at least as many valid UTF-8 multi-byte characters as invalid
 * sequences. Such a sheet is refused, naming the lines to correct. A genuine Windows-1252 sheet has
 * an invalid sequence for nearly every accented letter and valid multi-byte characters only by rare
 * accident (`É` before a non-breaking space is C9 A0), so it is still read as Windows-1252.
 */
import { createReadStream } from 'node:fs';

import { SheetError } from './errors.js';
import { type Said, said } from './said.js';

/** A well-formed UTF-8 multi-byte character (Unicode table 3-7), over a latin1 reading of bytes. */
const VALID_MULTIBYTE =
  /[\xC2-\xDF][\x80-\xBF]|\xE0[\xA0-\xBF][\x80-\xBF]|[\xE1-\xEC\xEE\xEF][\x80-\xBF]{2}|\xED[\x80-\x9F][\x80-\xBF]|\xF0[\x90-\xBF][\x80-\xBF]{2}|[\xF1-\xF3][\x80-\xBF]{3}|\xF4[\x80-\x8F][\x80-\xBF]{2}/;

/** Whether the bytes hold a valid UTF-8 multi-byte character (one cut at either end is missed). */
export function holdsUtf8Character(bytes: Buffer): boolean {
  return VALID_MULTIBYTE.test(bytes.toString('latin1'));
}

/** How many lines with stray bytes a message names. */
const LINES_NAMED = 5;

/**
 * Counts, over a stream of chunks, the valid UTF-8 multi-byte characters and the invalid
 * sequences, and the lines of the invalid ones. A byte at a time: it only runs on sheets that are
 * not valid UTF-8 yet hold UTF-8 characters, which are rare.
 */
export class Utf8Census {
  characters = 0;
  invalid = 0;
  /** The first lines holding invalid sequences. */
  readonly lines: number[] = [];
  /** How many lines hold invalid sequences. */
  linesWithInvalid = 0;
  #line = 1;
  #lastInvalidLine = 0;
  /** Continuation bytes the current character still needs, and the range its next one must be in. */
  #need = 0;
  #low = 0x80;
  #high = 0xbf;

  push(chunk: Buffer): void {
    for (const byte of chunk) {
      if (this.#need > 0) {
        if (byte >= this.#low && byte <= this.#high) {
          this.#need -= 1;
          this.#low = 0x80;
          this.#high = 0xbf;
          if (this.#need === 0) this.characters += 1;
          continue;
        }
        this.#need = 0; // a character cut short: invalid, and this byte starts afresh
        this.#invalidHere();
      }
      if (byte < 0x80) {
        if (byte === 0x0a) this.#line += 1;
      } else if (!this.#start(byte)) this.#invalidHere();
    }
  }

  end(): this {
    if (this.#need > 0) this.#invalidHere();
    this.#need = 0;
    return this;
  }

  /** Begins a multi-byte character at this lead byte; false when no character begins so. */
  #start(byte: number): boolean {
    this.#low = 0x80;
    this.#high = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) this.#need = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      this.#need = 2;
      if (byte === 0xe0) this.#low = 0xa0; // no overlong forms
      if (byte === 0xed) this.#high = 0x9f; // no surrogates
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      this.#need = 3;
      if (byte === 0xf0) this.#low = 0x90;
      if (byte === 0xf4) this.#high = 0x8f; // nothing beyond U+10FFFF
    } else return false;
    return true;
  }

  #invalidHere(): void {
    this.invalid += 1;
    if (this.#lastInvalidLine === this.#line) return;
    this.#lastInvalidLine = this.#line;
    this.linesWithInvalid += 1;
    if (this.lines.length < LINES_NAMED) this.lines.push(this.#line);
  }
}

/** Whether a sheet with invalid bytes is, by the rule above, UTF-8 with strays. */
export function mostlyUtf8(census: Utf8Census, bom: boolean): boolean {
  return census.invalid > 0 && (bom || census.characters >= census.invalid);
}

/** The refusal of a mostly UTF-8 sheet, naming the lines to correct. */
export function strayBytesError(census: Utf8Census): SheetError {
  const lines = census.lines;
  const more = census.linesWithInvalid - lines.length;
  let where: Said;
  if (lines.length === 1) where = said('sheets.strayBytes.line', { line: String(lines[0] ?? '') });
  else if (more === 0)
    where = said('sheets.strayBytes.lines', {
      lines: lines.slice(0, -1).join(', '),
      last: String(lines.at(-1) ?? ''),
    });
  else where = said('sheets.strayBytes.more', { lines: lines.join(', '), more });
  return new SheetError(said('sheets.strayBytes', { where }));
}

/**
 * Reads a sheet that is not valid UTF-8 but holds UTF-8 characters (or a byte-order mark) once
 * more, to tell which it is: throws the refusal when it is mostly UTF-8, returns when it is
 * Windows-1252.
 */
export async function refuseMostlyUtf8(path: string, bom: boolean): Promise<void> {
  const census = new Utf8Census();
  for await (const chunk of createReadStream(path, {
    start: bom ? 3 : 0,
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    census.push(chunk);
  }
  if (mostlyUtf8(census.end(), bom)) throw strayBytesError(census);
}
