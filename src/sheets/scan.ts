import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

import iconv from 'iconv-lite';

import { SheetError } from './errors.js';

export type TextEncoding = 'utf-8' | 'windows-1252';

/** What one pass over a sheet's bytes tells, before any parsing. */
export interface SheetScan {
  /** Of the file's bytes: the key for "same content imported before". */
  sha256: string;
  bytes: number;
  /** UTF-8 when every byte sequence is valid UTF-8, else Windows-1252 (Excel on Windows). */
  encoding: TextEncoding;
  /** Whether it starts with a UTF-8 byte-order mark. */
  bom: boolean;
  /** The start of the file, decoded (for delimiter detection). */
  head: string;
}

const HEAD_BYTES = 64 * 1024;

/**
 * Hashes the sheet and finds its encoding in one streaming pass: invalid UTF-8 anywhere in the
 * file means Windows-1252, so a stray byte at row 90,000 cannot garble the rows before it.
 */
export async function scanSheet(path: string): Promise<SheetScan> {
  const hash = createHash('sha256');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let validUtf8 = true;
  let bytes = 0;
  const headChunks: Buffer[] = [];
  let headBytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (headBytes < HEAD_BYTES) {
      headChunks.push(chunk);
      headBytes += chunk.length;
    }
    if (validUtf8) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        validUtf8 = false; // TextDecoder's only complaint: a byte sequence that is not UTF-8
      }
    }
    bytes += chunk.length;
  }
  if (validUtf8) {
    try {
      utf8.decode();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      validUtf8 = false; // the file ends inside a multi-byte character
    }
  }
  const head = Buffer.concat(headChunks).subarray(0, HEAD_BYTES);
  refuseUnreadable(head, bytes);
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  const encoding: TextEncoding = validUtf8 ? 'utf-8' : 'windows-1252';
  return {
    sha256: hash.digest('hex'),
    bytes,
    encoding,
    bom,
    head: decodeHead(head.subarray(bom ? 3 : 0), encoding),
  };
}

function refuseUnreadable(head: Buffer, bytes: number): void {
  if (bytes === 0)
    throw new SheetError('the sheet is empty: it needs a header row and at least one order.');
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new SheetError(
      'the sheet is saved as UTF-16 ("Unicode text"); save it as "CSV UTF-8" or "CSV (semicolon delimited)" instead.',
    );
  }
  if (head.subarray(0, 8192).includes(0)) {
    throw new SheetError(
      'this is not a text sheet (it holds binary data; an Excel .xlsx file must first be saved as CSV).',
    );
  }
}

function decodeHead(head: Buffer, encoding: TextEncoding): string {
  // The head may end inside a character; a replacement character there does no harm.
  return encoding === 'utf-8' ? head.toString('utf8') : iconv.decode(head, 'win1252');
}
