/**
 * The sheet imported is the sheet hashed. When a sheet is queued, its bytes are copied into a
 * private, read-only file under the data folder (`sheets/<sheetId>/<name>`, read by the workers
 * of every host that shares that folder: sheet-home.ts) and hashed and scanned as they are copied
 * (their encoding, the head a CSV's delimiter is found in); every later read — the intake's pass
 * (taken-sheet.ts), the sheet job's and the report's failed/ — parses that copy, neither hashing
 * nor scanning it again. No row can then come from bytes other than the
 * ones hashed, however the user's file is rewritten meanwhile.
 *
 * Why a copy, rather than hashing in each pass exactly the bytes the parser consumes and checking
 * the file's size and mtime before each chunk is handed on: that hash is known only at the end of
 * a pass, after its rows went to row jobs, so a rewrite the size and mtime do not show (a same-size
 * save within one timestamp tick, as on shares that keep seconds; a tool that restores mtime) would
 * be caught only once a mix was sent. A copy needs the file to hold still for the seconds it takes
 * to copy (checked with ctime too, which no tool sets back), and after that nothing the user does
 * can reach an order. The price is one more write of the sheet's bytes, once, when it is queued.
 *
 * The user's file is still watched, by size and modification time, so that a change the user
 * makes is honoured: the sheet job refuses the rows it has not handed on yet (see sheet-job.ts).
 * Attachments stay relative to the original's folder: only the sheet is copied. A hot-folder
 * sheet is not: moved out of the inbox into a work folder of the importer's own, it is its own
 * private copy, so that its bytes are not stored twice while it is imported. It is hashed and
 * scanned where it lies in the inbox (`readInPlace`), and what that read found holds once it has
 * moved only while the file is still the one read (`stillAsRead`); else, and after a crash, it is
 * read in its work folder (`takeSheetInPlace`).
 */
import { randomBytes } from 'node:crypto';
import { type BigIntStats, constants, createWriteStream } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

import { UserError } from '../errors.js';
import { writingIn } from '../machine-fault.js';
import { SHEET_COPY_ATTEMPTS } from '../policy.js';
import { SheetError } from '../sheets/errors.js';
import { sheetFormat } from '../sheets/records.js';
import { hashFile, ScanTap, type SheetScan } from '../sheets/scan.js';
import { echoFilePath } from './taken-sheet.js';

/**
 * The sheet kept changing while it was copied: queue it again once it is saved. Retryable: once
 * the sheet is written whole, the same import succeeds.
 */
function unsettled(path: string): UserError {
  return new UserError(
    'sheet.unsettled',
    `${path} kept changing while it was being queued: wait until it is saved completely, then queue it again.`,
    { retryable: true },
  );
}

export interface TakenSheet {
  /** Of the copy's bytes: what every read parses. */
  sha256: string;
  /**
   * The copy's bytes scanned as they were copied (sheets/scan.ts): its size, encoding and head,
   * so that no read hashes or scans it again; undefined for bytes that cannot be a sheet of their
   * format (empty, UTF-16, binary), which the sheet job then refuses as it reads them.
   */
  scan?: SheetScan;
  /** Why the bytes cannot be a sheet of their format, when `scan` is undefined. */
  refused?: SheetError;
  /** The original's version when it was copied (see `sheetChanged`). */
  origin: string;
  /** Where the copy is. */
  copy: string;
}

/** A file's identity and version as one read of it saw it (see `sameWrite`). */
export type FileVersion = Pick<BigIntStats, 'ino' | 'dev' | 'size' | 'mtimeNs' | 'ctimeNs'>;

/** A sheet read where it lies (`readInPlace`): its version as read, to tell whether it is still that. */
export type ReadInPlace = TakenSheet & { version: FileVersion };

export interface TakeOptions {
  /** Called after each copy, before it is judged (tests rewrite the sheet here). */
  afterCopy?: (attempt: number) => Promise<void>;
}

const READ_CHUNK = 1024 * 1024;

/** Where the private copy of sheet `sheetId` (named `name`) is kept. */
export function sheetCopyPath(sheetsDir: string, sheetId: string, name: string): string {
  // Both come from Redis when a worker reads the copy or removes it: never a path of their own.
  if (!/^[\w-][\w.-]*$/.test(sheetId)) throw new Error(`not a sheet id: "${sheetId}"`);
  const file = basename(name);
  if (file === '' || file === '.' || file === '..') throw new Error(`not a sheet name: "${name}"`);
  return join(sheetsDir, sheetId, file);
}

/**
 * Copies the sheet at `path` into its private file, hashing the bytes as they are written. The
 * file is read through one descriptor, and a copy during which it changed (its size, mtime or
 * ctime moved) is made again, so that the copy is one version of the sheet, not a torn mix.
 */
export async function takeSheetCopy(
  path: string,
  sheetsDir: string,
  sheetId: string,
  options: TakeOptions = {},
): Promise<TakenSheet> {
  const copy = sheetCopyPath(sheetsDir, sheetId, basename(path));
  await mkdir(dirname(copy), { recursive: true });
  for (let attempt = 1; attempt <= SHEET_COPY_ATTEMPTS; attempt++) {
    const partial = `${copy}.${randomBytes(4).toString('hex')}.partial`;
    try {
      const taken = await writingIn(partial, () => copyOnce(path, partial));
      await options.afterCopy?.(attempt);
      const now = await stat(path, { bigint: true });
      if (sameWrite(taken.before, taken.after) && sameWrite(taken.after, now)) {
        const scan = await scanOf(taken.tap, path, partial);
        await chmod(partial, 0o444);
        await rename(partial, copy);
        const { sha256 } = taken.tap.digest();
        const found = scan instanceof SheetError ? { refused: scan } : { scan };
        return { sha256, origin: originOf(taken.after), copy, ...found };
      }
    } finally {
      await rm(partial, { force: true }); // gone already once renamed
    }
  }
  throw unsettled(path);
}

/**
 * A sheet the importer took into a folder of its own (the hot folder's `work/<sheetId>/`, out of
 * the user's reach): it is its own private copy, hashed and scanned where it is rather than
 * stored a second time. Read through one descriptor, again when it changed meanwhile; once taken,
 * a change is what `sheetChanged` tells of any sheet's original.
 */
export async function takeSheetInPlace(path: string): Promise<TakenSheet> {
  for (let attempt = 1; attempt <= SHEET_COPY_ATTEMPTS; attempt++) {
    const taken = await readInPlace(path);
    if (taken !== undefined) return taken;
  }
  throw unsettled(path);
}

/**
 * The file at `path` hashed and scanned where it lies, in one read through one descriptor;
 * undefined when it was written to meanwhile (then no one version of it was read). A link is
 * never followed (an error, ELOOP): a sheet in a folder the importer takes from is a file.
 */
export async function readInPlace(path: string): Promise<ReadInPlace | undefined> {
  const taken = await copyOnce(path, undefined, constants.O_RDONLY | constants.O_NOFOLLOW);
  const now = await lstat(path, { bigint: true });
  if (!sameWrite(taken.before, taken.after) || !sameWrite(taken.after, now)) return undefined;
  const scan = await scanOf(taken.tap, path, path);
  const { sha256 } = taken.tap.digest();
  const { ino, dev, size, mtimeNs, ctimeNs } = taken.after;
  return {
    sha256,
    origin: originOf(taken.after),
    copy: path,
    version: { ino, dev, size, mtimeNs, ctimeNs },
    ...(scan instanceof SheetError ? { refused: scan } : { scan }),
  };
}

/**
 * Whether the file at `path` is still the one read as `version`, not written to since (false
 * when it is gone, or a link now). `moved`: renamed since, by the importer, within its file
 * system: a rename moves the ctime, so only the identity, size and modification time are compared.
 */
export async function stillAsRead(
  path: string,
  version: FileVersion,
  { moved = false } = {},
): Promise<boolean> {
  let now: BigIntStats;
  try {
    now = await lstat(path, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
  return sameWrite(version, moved ? { ...now, ctimeNs: version.ctimeNs } : now);
}

/** Reads the file at `path` once, scanning it, into `to` when given. */
async function copyOnce(
  path: string,
  to?: string,
  flags: string | number = 'r',
): Promise<{ tap: ScanTap; before: BigIntStats; after: BigIntStats }> {
  const source = await open(path, flags);
  try {
    const before = await source.stat({ bigint: true });
    const scan = new ScanTap();
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        scan.push(chunk);
        done(null, chunk);
      },
    });
    const read = source.createReadStream({ autoClose: false, highWaterMark: READ_CHUNK });
    if (to === undefined) for await (const chunk of read) scan.push(chunk as Buffer);
    else
      await pipeline(read, tap, createWriteStream(to, { flags: 'wx', mode: 0o600, flush: true }));
    const after = await source.stat({ bigint: true });
    return { tap: scan, before, after };
  } finally {
    await source.close();
  }
}

/**
 * The scan of the bytes copied: a workbook's hash and size (its zip is checked as it is read), a
 * text sheet's encoding and head too; for bytes that are no text sheet, why. `copy` holds the
 * bytes, for the rare sheet whose encoding needs a second look.
 */
async function scanOf(tap: ScanTap, path: string, copy: string): Promise<SheetScan | SheetError> {
  if (sheetFormat(path) === 'xlsx')
    return { ...tap.digest(), encoding: 'utf-8', bom: false, head: '' };
  try {
    return await tap.end(copy);
  } catch (error) {
    if (error instanceof SheetError) return error;
    throw error;
  }
}

/** The same file, not written to between the two looks (ctime moves with every write). */
function sameWrite(a: FileVersion, b: FileVersion): boolean {
  return (
    a.ino === b.ino &&
    a.dev === b.dev &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/**
 * A file's version as any host sharing the folder sees it: size and modification time. (Inode
 * numbers and ctime may differ from one host to another on a network share, and ctime also moves
 * on a rename or a chmod, which change no row.)
 */
export function originOf(stats: Pick<BigIntStats, 'size' | 'mtimeNs'>): string {
  return `${stats.size}:${stats.mtimeNs}`;
}

/**
 * Whether the file at `path` is no longer the version `origin` (saved over, or removed). Given
 * the hash queued, a file whose size and time alone differ is hashed before it is called changed:
 * a host on a network share may see another host's file with times of its own, and refusing a
 * sheet that did not change would refuse rows for nothing. A version found the same goes into
 * `same`, so that such a share costs one hash, not one per check.
 */
export async function sheetChanged(
  path: string,
  origin: string,
  sha256?: string,
  same: Set<string> = new Set(),
): Promise<boolean> {
  let seen: string;
  try {
    seen = originOf(await stat(path, { bigint: true }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return true;
    throw error;
  }
  if (seen === origin || same.has(seen)) return false;
  if (sha256 === undefined || (await hashFile(path)) !== sha256) return true;
  same.add(seen);
  return false;
}

/** Removes a sheet's private copy (once its report is written, or when it was not needed). */
export async function discardSheetCopy(
  sheetsDir: string,
  sheetId: string,
  name: string,
): Promise<void> {
  const copy = sheetCopyPath(sheetsDir, sheetId, name);
  // What the pass over it wrote beside it (taken-sheet.ts), needed no more either.
  await rm(echoFilePath(sheetsDir, sheetId), { force: true });
  try {
    await chmod(copy, 0o600); // a read-only file cannot be removed on Windows
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rm(copy, { force: true });
  try {
    await rmdir(dirname(copy));
  } catch (error) {
    // Still holding something (a copy being made by another process): it stays.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}

/** What every read of a sheet parses: its private copy, attachments beside the original. */
export function sheetSource(
  sheet: {
    sheetId: string;
    path: string;
    name: string;
    origin?: string | undefined;
    inPlace?: boolean;
  },
  sheetsDir: string,
): { path: string; folder: string } {
  const folder = dirname(sheet.path);
  // Queued before copies were made, or its own copy (`takeSheetInPlace`).
  if (sheet.origin === undefined || sheet.inPlace === true) return { path: sheet.path, folder };
  return { path: sheetCopyPath(sheetsDir, sheet.sheetId, sheet.name), folder };
}
