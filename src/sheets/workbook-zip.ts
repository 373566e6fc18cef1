/**
 * What a workbook's zip tells before a byte of it is parsed: whether it is a workbook at all (a
 * zip holding `xl/workbook.xml`), whether it is whole (its central directory, at the end of the
 * file, is there, and every part inflates to the size and checksum it declares), whether it is
 * password-protected, and whether the parts read into memory (shared strings, styles, the workbook
 * part) stay within bounds once inflated. Worksheets are streamed, so only their count of rows
 * bounds them, as a CSV's does.
 *
 * Why every part is inflated once here, at the price of a second pass: the streaming reader waits
 * forever on a part whose compressed data is damaged, and believes the sizes a zip declares; after
 * this pass neither can happen (a part inflating past its declared size is stopped there).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { crc32, createInflateRaw } from 'node:zlib';

import { SheetError } from './errors.js';

/** Inflated sizes of the parts the reader keeps whole in memory, at most. */
const MAX_MEMORY_PARTS: Record<string, number> = {
  'xl/sharedStrings.xml': 128 * 1024 * 1024,
  'xl/styles.xml': 16 * 1024 * 1024,
  'xl/workbook.xml': 16 * 1024 * 1024,
  'xl/_rels/workbook.xml.rels': 4 * 1024 * 1024,
};

const SAVE_AGAIN = 'open it in Excel and save it again as .xlsx, or save it as CSV.';
const END_RECORD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
/** The end record (22 bytes) plus the longest comment a zip may carry. */
const TAIL_BYTES = 22 + 0xffff;

interface ZipEntry {
  name: string;
  /** Inflated, as declared. */
  size: number;
  encrypted: boolean;
  method: number;
  crc: number;
  compressedSize: number;
  /** Where its local header is. */
  offset: number;
}

/** The zip's entries, or a SheetError saying in plain words why this is no readable workbook. */
export async function checkWorkbookZip(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(8);
    await file.read(head, 0, 8, 0);
    refuseByHead(head, size);
    const entries = await readDirectory(file, size);
    refuseEntries(entries);
    for (const entry of entries) await verifyEntry(path, file, entry);
    return entries;
  } finally {
    await file.close();
  }
}

function refuseByHead(head: Buffer, size: number): void {
  if (size === 0) throw new SheetError('the workbook is empty (0 bytes).');
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    // An OLE container: Excel saves a password-protected .xlsx in one, and an old .xls is one.
    throw new SheetError(
      'the workbook is password-protected (or is an old-style .xls renamed): remove the password in Excel (File > Info > Protect Workbook) and save it as .xlsx, or save it as CSV.',
    );
  }
  if (head.readUInt32LE(0) !== 0x04034b50) {
    throw new SheetError(`this file is not an Excel workbook (.xlsx): ${SAVE_AGAIN}`);
  }
}

async function readDirectory(
  file: Awaited<ReturnType<typeof open>>,
  size: number,
): Promise<ZipEntry[]> {
  const tailLength = Math.min(size, TAIL_BYTES);
  const tail = Buffer.alloc(tailLength);
  await file.read(tail, 0, tailLength, size - tailLength);
  let end = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_RECORD) {
      end = i;
      break;
    }
  }
  const damaged = new SheetError(
    `the workbook is damaged or incomplete (cut short while it was copied?): ${SAVE_AGAIN}`,
  );
  if (end < 0) throw damaged;
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryAt = tail.readUInt32LE(end + 16);
  if (directoryAt === 0xffffffff || count === 0xffff)
    throw new SheetError(`the workbook is larger than 4 GB: save it as CSV instead.`);
  if (directoryAt + directorySize > size - tailLength + end) throw damaged;
  const directory = Buffer.alloc(directorySize);
  await file.read(directory, 0, directorySize, directoryAt);
  return parseDirectory(directory, count, damaged);
}

function parseDirectory(directory: Buffer, count: number, damaged: SheetError): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_ENTRY) throw damaged;
    const flags = directory.readUInt16LE(at + 8);
    const nameLength = directory.readUInt16LE(at + 28);
    const skip = directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    entries.push({
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      size: directory.readUInt32LE(at + 24),
      encrypted: (flags & 1) === 1,
      method: directory.readUInt16LE(at + 10),
      crc: directory.readUInt32LE(at + 16),
      compressedSize: directory.readUInt32LE(at + 20),
      offset: directory.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + skip;
  }
  return entries;
}

function refuseEntries(entries: readonly ZipEntry[]): void {
  const names = new Set(entries.map((entry) => entry.name));
  if (!names.has('xl/workbook.xml')) {
    const hint = names.has('content.xml')
      ? 'it is an OpenDocument (.ods) file: save it as .xlsx or CSV.'
      : `it is a zip file without a workbook in it: ${SAVE_AGAIN}`;
    throw new SheetError(`this file is not an Excel workbook (.xlsx): ${hint}`);
  }
  if (entries.some((entry) => entry.encrypted)) {
    throw new SheetError(
      'the workbook is encrypted: remove its password in Excel and save it as .xlsx, or save it as CSV.',
    );
  }
  for (const entry of entries) {
    const limit = MAX_MEMORY_PARTS[entry.name];
    if (limit !== undefined && entry.size > limit) {
      throw new SheetError(
        `the workbook's ${entry.name.replace(/^xl\//, '')} part is ${Math.ceil(entry.size / 1024 / 1024)} MB once unpacked, more than the ${limit / 1024 / 1024} MB the importer reads: save it as CSV instead.`,
      );
    }
  }
  if (!entries.some((entry) => /^xl\/worksheets\/sheet\d+\.xml$/.test(entry.name)))
    throw new SheetError(`the workbook holds no worksheet: ${SAVE_AGAIN}`);
}

/** Inflates one part to check it is whole: its declared size and checksum, and no byte beyond. */
async function verifyEntry(
  path: string,
  file: Awaited<ReturnType<typeof open>>,
  entry: ZipEntry,
): Promise<void> {
  const damaged = new SheetError(
    `the workbook is damaged (its part ${entry.name} cannot be unpacked): ${SAVE_AGAIN}`,
  );
  if (entry.method !== 0 && entry.method !== 8) {
    throw new SheetError(`the workbook is packed in a way Excel does not use: ${SAVE_AGAIN}`);
  }
  const local = Buffer.alloc(30);
  await file.read(local, 0, 30, entry.offset);
  if (local.readUInt32LE(0) !== 0x04034b50) throw damaged;
  const start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0 && entry.size === 0) return;
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1 });
  const data = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  let bytes = 0;
  let crc = 0;
  try {
    for await (const chunk of data as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > entry.size) throw damaged;
      crc = crc32(chunk, crc);
    }
  } catch (error) {
    if (error === damaged || (error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw damaged;
    throw error;
  } finally {
    raw.destroy();
    data.destroy();
  }
  if (bytes !== entry.size || crc !== entry.crc) throw damaged;
}
