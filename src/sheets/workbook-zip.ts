/**
 * A workbook's zip, read through its central directory only (yauzl): an entry the directory does
 * not list is never read, two entries of one name are refused as ambiguous, and each part read is
 * checked as it inflates: its declared size against a cap before a byte is inflated, its stored
 * bytes against the directory's (yauzl), its inflated bytes against the declared size as they
 * come, and its checksum at its end.
 * Nothing is written to disk. Every failure is a SheetError in plain words: the file is the user's.
 */
import { open } from 'node:fs/promises';
import { pipeline, type Readable, type TransformOptions } from 'node:stream';
import { crc32, createInflateRaw, type ZlibOptions } from 'node:zlib';

import yauzl from 'yauzl';

import { SheetError } from './errors.js';
import { type Said, said } from './said.js';

/** `problem`, and what to do about it: save the workbook again, or as CSV. */
export function saveAgain(problem: Said): Said {
  return said('sheets.workbook.fix', { problem, fix: said('sheets.workbook.saveAgain') });
}
const MB = 1024 * 1024;
/** A workbook has tens of parts, a few thousand with many charts or images; more is no workbook. */
const MAX_ENTRIES = 20_000;
const INFLATED_CHUNK = 128 * 1024;
/**
 * Inflated ahead of the parser, at most: zlib runs on libuv's threads, so it inflates the next
 * chunks while this thread parses the one before (with the default, 16 KB, the two took turns).
 */
const INFLATE_OPTIONS: ZlibOptions & TransformOptions = {
  chunkSize: INFLATED_CHUNK,
  highWaterMark: 4 * INFLATED_CHUNK,
};

/** The parts of a workbook's zip by name (compared ignoring case, as the standard compares them). */
export interface WorkbookZip {
  has(name: string): boolean;
  /**
   * A part's inflated bytes, chunk by chunk; refused beyond `maxBytes` (its `label` names it), or
   * when damaged, its checksum wrong, or sizes not as declared.
   */
  chunks(name: string, maxBytes: number, label: Said): AsyncGenerator<Buffer>;
  close(): void;
}

/**
 * The zip of the workbook at `path`, or a SheetError saying why it is not one. `checked`: these
 * very bytes were read whole once and passed every check (the pass over a sheet's private copy
 * when it was queued, store/taken-sheet.ts, as its record says): their head is not looked at and
 * no part's checksum computed again. The sizes are still held to, which bound the memory used.
 */
export async function openWorkbookZip(
  path: string,
  options: { checked?: boolean } = {},
): Promise<WorkbookZip> {
  const checked = options.checked === true;
  if (!checked) await refuseByHead(path);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, opened) => {
        if (error === null) resolve(opened);
        else reject(error);
      },
    );
  }).catch((error: unknown) => {
    throw damaged(said('sheets.workbook.cutShort'), error);
  });
  try {
    if (zip.entryCount > MAX_ENTRIES)
      throw new SheetError(
        saveAgain(said('sheets.workbook.tooManyParts', { count: zip.entryCount })),
      );
    return zipParts(zip, await listEntries(zip), checked);
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function refuseByHead(path: string): Promise<void> {
  const file = await open(path, 'r');
  const head = Buffer.alloc(8);
  try {
    const { bytesRead } = await file.read(head, 0, 8, 0);
    if (bytesRead === 0) throw new SheetError(said('sheets.workbook.emptyFile'));
  } finally {
    await file.close();
  }
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    // An OLE container: Excel saves a password-protected .xlsx in one, and an old .xls is one.
    throw new SheetError(said('sheets.workbook.passwordOrXls'));
  }
  if (head.readUInt32LE(0) !== 0x04034b50)
    throw new SheetError(saveAgain(said('sheets.workbook.notWorkbook')));
}

async function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const key = entry.fileName.toLowerCase();
      if (entries.has(key)) {
        reject(
          new SheetError(saveAgain(said('sheets.workbook.twoParts', { part: entry.fileName }))),
        );
        return;
      }
      if (entry.isEncrypted()) {
        reject(new SheetError(said('sheets.workbook.encrypted')));
        return;
      }
      if (!key.endsWith('/')) entries.set(key, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', (error: unknown) => {
      reject(damaged(said('sheets.workbook.damaged'), error));
    });
    zip.readEntry();
  });
  return entries;
}

function zipParts(
  zip: yauzl.ZipFile,
  entries: Map<string, yauzl.Entry>,
  checked: boolean,
): WorkbookZip {
  return {
    has: (name) => entries.has(name.toLowerCase()),
    chunks: (name, maxBytes, label) => {
      const entry = entries.get(name.toLowerCase());
      if (entry === undefined)
        throw new SheetError(saveAgain(said('sheets.workbook.noPart', { part: name })));
      return partChunks(zip, entry, maxBytes, label, checked);
    },
    close: () => {
      zip.close();
    },
  };
}

async function* partChunks(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  maxBytes: number,
  label: Said,
  checked: boolean,
): AsyncGenerator<Buffer> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw new SheetError(saveAgain(said('sheets.workbook.packedOddly')));
  if (entry.uncompressedSize > maxBytes) throw tooBig(label, entry.uncompressedSize, maxBytes);
  const broken = (error?: unknown) =>
    damaged(said('sheets.workbook.partNotUnpacked', { part: entry.fileName }), error);
  let raw: Readable;
  try {
    raw = await new Promise<Readable>((resolve, reject) => {
      zip.openReadStream(entry, { decodeFileData: false }, (error, opened) => {
        if (error === null) resolve(opened);
        else reject(error);
      });
    });
  } catch (error) {
    throw broken(error);
  }
  // Inflated here rather than by yauzl, in larger chunks: a fifth of the calls for a worksheet.
  const stream =
    entry.compressionMethod === 8
      ? pipeline(raw, createInflateRaw(INFLATE_OPTIONS), () => undefined)
      : raw;
  let bytes = 0;
  let crc = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooBig(label, bytes, maxBytes);
      // Stopped at the size declared: a part that inflates past it is damaged, or a bomb.
      if (bytes > entry.uncompressedSize) throw broken();
      if (!checked) crc = crc32(chunk, crc);
      yield chunk;
    }
  } catch (error) {
    throw error instanceof SheetError ? error : broken(error);
  } finally {
    stream.destroy();
    raw.destroy();
  }
  if (bytes !== entry.uncompressedSize || (!checked && crc !== entry.crc32)) throw broken();
}

function tooBig(label: Said, bytes: number, maxBytes: number): SheetError {
  return new SheetError(
    said('sheets.workbook.tooBig', {
      part: label,
      megabytes: Math.ceil(bytes / MB),
      limit: maxBytes / MB,
    }),
  );
}

/** `what`: what is wrong with the workbook. */
export function damaged(what: Said, cause?: unknown): SheetError {
  const options = cause === undefined ? undefined : { cause };
  return new SheetError(saveAgain(what), undefined, options);
}
