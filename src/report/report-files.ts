/**
 * The files of a report, written as streams: CSV with a UTF-8 BOM and the input's delimiter (so
 * Excel on the user's machine opens it right), JSON arrays and NDJSON in the input's own shape,
 * and copies of the attachments that rows to fix refer to.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import { stringify } from 'csv-stringify';

import { openInside, plainRelative } from '../orders/open-attachment.js';
import { neutraliseCell } from '../sheets/excel-text.js';

export { XlsxOut } from './xlsx-out.js';

/**
 * A CSV file written row by row, created on the first row. Every cell, the header's too, is
 * neutralised: a cell Excel would run as a formula gets a leading `'` (the CSV reader drops it).
 */
export class CsvOut {
  #csv: ReturnType<typeof stringify> | undefined;
  #file: WriteStream | undefined;

  constructor(
    readonly path: string,
    private readonly header: readonly string[],
    private readonly delimiter: string,
  ) {}

  async write(record: ReadonlyArray<string | number | null | undefined>): Promise<void> {
    if (!this.#csv) {
      await mkdir(dirname(this.path), { recursive: true });
      this.#file = createWriteStream(this.path);
      this.#csv = stringify({
        delimiter: this.delimiter,
        bom: true,
        record_delimiter: 'windows',
        // Any line break, not only CRLF: a reader may take a bare LF or CR for the end of a line,
        // and what follows it for a cell of its own (a formula, unneutralised).
        quoted_match: /[\r\n]/,
      });
      this.#csv.pipe(this.#file);
      this.#csv.write(this.header.map(neutraliseCell));
    }
    if (
      !this.#csv.write(
        record.map((cell) =>
          cell === undefined || cell === null ? '' : neutraliseCell(String(cell)),
        ),
      )
    ) {
      await once(this.#csv, 'drain');
    }
  }

  async close(): Promise<void> {
    if (!this.#csv || !this.#file) return;
    this.#csv.end();
    await once(this.#file, 'finish');
  }
}

/** A JSON array or NDJSON file written object by object, created on the first one. */
export class JsonOut {
  #file: WriteStream | undefined;
  #count = 0;

  constructor(
    readonly path: string,
    private readonly style: 'array' | 'lines',
  ) {}

  async write(object: unknown): Promise<void> {
    if (!this.#file) {
      await mkdir(dirname(this.path), { recursive: true });
      this.#file = createWriteStream(this.path);
      if (this.style === 'array') this.#file.write('[\n');
    }
    const text = JSON.stringify(object);
    const piece =
      this.style === 'array' ? `${this.#count === 0 ? '' : ',\n'}  ${text}` : `${text}\n`;
    this.#count += 1;
    if (!this.#file.write(piece)) await once(this.#file, 'drain');
  }

  async close(): Promise<void> {
    if (!this.#file) return;
    if (this.style === 'array') this.#file.write('\n]\n');
    this.#file.end();
    await once(this.#file, 'finish');
  }
}

/**
 * Copies attachments into a folder with the same layout as beside the sheet, each once, so
 * that the folder can be fixed and dropped back into the inbox whole. Only what passes the
 * attachment checks now is copied (open-attachment.ts): nothing through a link, nothing from
 * outside the sheet's folder; a refusal comes out as an AttachmentRefused.
 */
export class AttachmentCopies {
  readonly #copied = new Set<string>();

  constructor(
    private readonly sheetDir: string,
    private readonly into: string,
    private readonly maxBytes?: number,
  ) {}

  async copy(relativePath: string): Promise<void> {
    const plain = plainRelative(relativePath);
    if (this.#copied.has(plain)) return;
    this.#copied.add(plain);
    const file = await openInside(
      this.sheetDir,
      plain,
      this.maxBytes === undefined ? {} : { maxBytes: this.maxBytes },
    );
    try {
      const target = join(this.into, plain);
      await mkdir(dirname(target), { recursive: true });
      // `wx`: a new file of our own, never written through something already there.
      await pipeline(file.stream(), createWriteStream(target, { flags: 'wx' }));
    } finally {
      await file.close();
    }
  }
}
