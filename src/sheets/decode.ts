import { createReadStream } from 'node:fs';

import iconv from 'iconv-lite';

import type { SheetScan } from './scan.js';

/** A stream stage (a decoder, a parser) that can be failed from outside. */
export type Stage = NodeJS.ReadWriteStream & { destroy(error?: Error): unknown };

/** The sheet's text as a stream of strings, in its detected encoding, without a byte-order mark. */
export function decodedStream(path: string, scan: SheetScan): NodeJS.ReadableStream {
  const bytes = createReadStream(path, { start: scan.bom ? 3 : 0 });
  if (scan.encoding === 'utf-8') return bytes.setEncoding('utf8');
  return chain(bytes, iconv.decodeStream('win1252') as Stage);
}

/**
 * What a CSV sheet's parser reads: a UTF-8 sheet's bytes as they are (csv-parse works on bytes and
 * decodes each cell as UTF-8 itself: text handed to it is first encoded back into the same bytes,
 * which cost a decoding and an encoding of the whole sheet), else its text decoded; without a
 * byte-order mark either way.
 */
export function csvInput(path: string, scan: SheetScan): NodeJS.ReadableStream {
  if (scan.encoding === 'utf-8') return createReadStream(path, { start: scan.bom ? 3 : 0 });
  return decodedStream(path, scan);
}

/**
 * `source` piped into `next`, with a failure of the source surfacing as an error of `next` (a plain
 * `.pipe()` would leave the reader waiting forever when the file cannot be read).
 */
export function chain<T extends Stage>(source: NodeJS.ReadableStream, next: T): T {
  source.once('error', (error: Error) => next.destroy(error));
  return source.pipe(next);
}
