/** Reads a zip's entries (stored or deflated), enough for tests to look inside a bundle; writes raw ones. */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export function unzip(zip: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry of a zip written byte by byte, so that a test can make it wrong in one way. */
export interface RawEntry {
  name: string;
  /** The content, deflated unless `packed` is given. */
  data?: Buffer | string;
  /** The bytes stored, as they are (bad deflate data, a bomb): `size` and `crc` then say what they claim. */
  packed?: Buffer;
  /** The inflated size and checksum written; by default the data's own. */
  size?: number;
  crc?: number;
  /** Whether the central directory lists it (default true): an entry it does not list is hidden. */
  listed?: boolean;
  /** General-purpose flags (1: encrypted) and compression method (8: deflate). */
  flags?: number;
  method?: number;
}

/** A zip of these entries in this order, as a hostile or careless producer might write one. */
export function rawZip(entries: readonly RawEntry[]): Buffer {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const packed = entry.packed ?? deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const fields = {
      flags: entry.flags ?? 0x800,
      method: entry.method ?? 8,
      crc: entry.crc ?? crc32(data),
      packed: packed.length,
      size: entry.size ?? data.length,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(fields.flags, 6);
    local.writeUInt16LE(fields.method, 8);
    local.writeUInt32LE(fields.crc >>> 0, 14);
    local.writeUInt32LE(fields.packed, 18);
    local.writeUInt32LE(fields.size, 22);
    local.writeUInt16LE(name.length, 26);
    if (entry.listed !== false) directory.push(centralEntry(name, fields, offset));
    chunks.push(local, name, packed);
    offset += 30 + name.length + packed.length;
  }
  const central = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(directory.length, 8);
  end.writeUInt16LE(directory.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, central, end]);
}

function centralEntry(
  name: Buffer,
  fields: { flags: number; method: number; crc: number; packed: number; size: number },
  offset: number,
): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(fields.flags, 8);
  header.writeUInt16LE(fields.method, 10);
  header.writeUInt32LE(fields.crc >>> 0, 16);
  header.writeUInt32LE(fields.packed, 20);
  header.writeUInt32LE(fields.size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, name]);
}
