import { createHash } from 'node:crypto';
import { isAscii, isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

import iconv from 'iconv-lite';

import type { Delimiter } from './delimiter.js';
import { holdsUtf8Character, refuseMostlyUtf8 } from './encoding.js';
import { SheetError } from './errors.js';
import { said } from './said.js';

export type TextEncoding = 'utf-8' | 'windows-1252';

/** What one pass over a sheet's bytes tells, before any parsing. */
export interface SheetScan {
  /** Of the file's bytes: the key for "same content imported before". */
  sha256: string;
  bytes: number;
  /**
   * UTF-8 when every byte sequence is valid UTF-8, else Windows-1252 (Excel on Windows); a sheet
   * that is mostly UTF-8 with stray bytes is refused (see encoding.ts).
   */
  encoding: TextEncoding;
  /** Whether it starts with a UTF-8 byte-order mark. */
  bom: boolean;
  /** The start of the file, decoded (for delimiter detection). */
  head: string;
  /** A CSV's delimiter and whether a `sep=` line gives it, when known already (then `head` may be empty). */
  layout?: CsvLayout;
}

/** How a CSV is laid out, as its head tells: kept in its record, so that no read looks again. */
export interface CsvLayout {
  delimiter: Delimiter;
  /** Its first line is Excel's `sep=` line, not its header. */
  separatorLine: boolean;
}

/**
 * A sheet's scan as its record keeps it, taken once when the sheet was queued: a private copy read
 * with it is neither hashed nor scanned again.
 */
export type KnownScan = Omit<SheetScan, 'head'> & {
  /** The bytes were read whole once and passed every check of their format (a workbook's zip). */
  checked?: boolean;
};

const HEAD_BYTES = 64 * 1024;
/** Hashing and the UTF-8 check go fastest over large reads. */
const READ_CHUNK = 1024 * 1024;

/**
 * Hashes the sheet and finds its encoding in one streaming pass: invalid UTF-8 anywhere in the
 * file means Windows-1252, so a stray byte at row 90,000 cannot garble the rows before it.
 */
export async function scanSheet(path: string): Promise<SheetScan> {
  const tap = new ScanTap();
  for await (const chunk of createReadStream(path, {
    highWaterMark: READ_CHUNK,
  }) as AsyncIterable<Buffer>) {
    tap.push(chunk);
  }
  return tap.end(path);
}

/**
 * What `scanSheet` learns, learnt from chunks read for another purpose (the copy of a sheet taken,
 * store/sheet-copy.ts): the one pass over a sheet's bytes that every later read relies on.
 */
export class ScanTap {
  readonly #hash = createHash('sha256');
  readonly #utf8 = new Utf8Check();
  readonly #headChunks: Buffer[] = [];
  #headBytes = 0;
  #bytes = 0;
  #sha256: string | undefined;

  push(chunk: Buffer): void {
    this.#hash.update(chunk);
    if (this.#headBytes < HEAD_BYTES) {
      // Copied: a chunk's buffer may be read into again by its reader.
      this.#headChunks.push(Buffer.from(chunk));
      this.#headBytes += chunk.length;
    }
    this.#utf8.push(chunk);
    this.#bytes += chunk.length;
  }

  /** The hash and size alone (a workbook's: its encoding is its zip's business). */
  digest(): { sha256: string; bytes: number } {
    this.#sha256 ??= this.#hash.digest('hex');
    return { sha256: this.#sha256, bytes: this.#bytes };
  }

  /**
   * The scan of the bytes pushed, or a SheetError when they cannot be a text sheet; `path` holds
   * the same bytes, read again only for a sheet mostly UTF-8 with stray bytes (encoding.ts).
   */
  async end(path: string): Promise<SheetScan> {
    const validUtf8 = this.#utf8.end();
    const head = Buffer.concat(this.#headChunks).subarray(0, HEAD_BYTES);
    refuseUnreadable(head, this.#bytes);
    const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
    if (!validUtf8 && (bom || this.#utf8.multiByte)) await refuseMostlyUtf8(path, bom);
    const encoding: TextEncoding = validUtf8 ? 'utf-8' : 'windows-1252';
    return {
      ...this.digest(),
      encoding,
      bom,
      head: decodeHead(head.subarray(bom ? 3 : 0), encoding),
    };
  }
}

function refuseUnreadable(head: Buffer, bytes: number): void {
  if (bytes === 0) throw new SheetError(said('sheets.empty'));
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new SheetError(said('sheets.utf16'));
  }
  if (head.subarray(0, 8192).includes(0)) {
    throw new SheetError(said('sheets.binary'));
  }
}

function decodeHead(head: Buffer, encoding: TextEncoding): string {
  // The head may end inside a character; a replacement character there does no harm.
  return encoding === 'utf-8' ? head.toString('utf8') : iconv.decode(head, 'win1252');
}

/**
 * Whether a stream of chunks is valid UTF-8, chunk by chunk (a character may be cut between two
 * chunks: its first bytes wait for the next one), and whether it holds any UTF-8 multi-byte
 * character (a sheet with both those and invalid bytes is looked at again).
 */
export class Utf8Check {
  #valid = true;
  #multiByte = false;
  #carry: Buffer = Buffer.alloc(0);

  get multiByte(): boolean {
    return this.#multiByte;
  }

  push(chunk: Buffer): void {
    if (!this.#valid) {
      if (!this.#multiByte) this.#multiByte = holdsUtf8Character(chunk);
      return;
    }
    const data = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    const cut = incompleteTail(data);
    this.#carry = Buffer.from(data.subarray(cut));
    const whole = data.subarray(0, cut);
    if (!isUtf8(whole)) {
      this.#valid = false;
      if (!this.#multiByte) this.#multiByte = holdsUtf8Character(data);
    } else if (!this.#multiByte) this.#multiByte = !isAscii(whole);
  }

  end(): boolean {
    return this.#valid && this.#carry.length === 0;
  }
}

/** Where a multi-byte character that the data ends in the middle of begins (else the length). */
function incompleteTail(data: Buffer): number {
  for (let i = data.length - 1; i >= Math.max(0, data.length - 4); i--) {
    const byte = data[i] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    if (byte < 0xc0) return data.length; // ASCII: nothing is cut
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return data.length - i < length ? i : data.length;
  }
  return data.length;
}

/** The sha256 of a file's bytes, streamed. */
export async function hashFile(path: string): Promise<string> {
  return (await hashAndSize(path)).sha256;
}

/** The sha256 of a file's bytes and how many there were, as one streamed read saw them. */
export async function hashAndSize(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  // One buffer read into again and again: a stream's fresh 1 MB chunk each time lay about until
  // the next collection, the whole workbook's size of memory beside its reader.
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  const file = await open(path, 'r');
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}
