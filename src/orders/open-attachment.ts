/**
 * Attachments are read only from inside their sheet's folder, and never through a symbolic link:
 * not where the file is a link, nor where a folder on its path is one. Validation checks this
 * once; a file is opened with this module every time it is read (upload, copy, zip), since the
 * folder may have changed since, and the check is made on the opened file itself, so that a link
 * swapped in between the look and the opening is caught too.
 */
import {
  closeSync,
  constants,
  createWriteStream,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
} from 'node:fs';
import { type FileHandle, lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type KnownErrorOptions, Refused } from '../errors.js';

export type RefusalKind =
  'invalid' | 'absolute' | 'outside' | 'link' | 'hard-link' | 'not-file' | 'too-large';

/** A file that must not be read from where it is; trying again changes nothing until it is fixed. */
export class AttachmentRefused extends Refused {
  override name = 'AttachmentRefused';

  constructor(
    /** As the sheet names it. */
    readonly path: string,
    readonly kind: RefusalKind,
    message: string,
    /** What a person's words need besides the path (attachments.ts `refusalText`). */
    options: Pick<KnownErrorOptions, 'values' | 'variant'> = {},
  ) {
    super(`attachment.${kind}`, message, options);
  }
}

/**
 * The attachment's path made plain (no `.` or `..` parts), or a refusal for a path that is
 * absolute or leads out of the sheet's folder. A name that merely begins with `..` (`..notes.txt`)
 * is a file name like any other.
 */
export function plainRelative(path: string): string {
  if (path.includes('\0'))
    throw new AttachmentRefused(path, 'invalid', `"${path}" is not a valid path.`);
  if (posix.isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('//')) {
    throw new AttachmentRefused(
      path,
      'absolute',
      `"${path}" is an absolute path: give the path relative to the sheet's folder.`,
    );
  }
  const plain = posix.normalize(path);
  if (plain === '.' || plain === '..' || plain.startsWith('../') || plain === './') {
    throw new AttachmentRefused(
      path,
      'outside',
      `"${path}" points outside the sheet's folder: attachments must be in that folder or below it.`,
    );
  }
  return plain;
}

/** Why a link on an attachment's path refuses it, in words for the user. */
export function linkMessage(path: string, link: string): string {
  const whole = posix.normalize(path) === link;
  return whole
    ? `"${path}" is a symbolic link: attachments are never read through a link; put the file itself there.`
    : `"${path}" goes through ${link}, a symbolic link: attachments are never read through a link; put the folder itself there.`;
}

/**
 * Why a regular file with more than one name (a hard link) is refused, in words for the user: its
 * other name may lie anywhere on the disk, outside the sheet's folder, and nothing tells where.
 */
export function hardLinkMessage(path: string, names: number): string {
  return `"${path}" is a hard link (the same file has ${names} names on the disk, maybe outside the sheet's folder, and attachments are read only from inside it): copy the file into the folder instead of linking it.`;
}

/**
 * The first part of `plain` (a plain relative path) below `root` that is a symbolic link, as a
 * relative path, or undefined; a part that is missing ends the look (the opening says so).
 */
export async function firstLink(root: string, plain: string): Promise<string | undefined> {
  for (const part of prefixes(plain)) {
    const stats = await lstatIfThere(posix.join(root, part));
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return part;
  }
  return undefined;
}

/** The same, synchronous, for validation's many small checks. */
export function firstLinkSync(root: string, plain: string): string | undefined {
  for (const part of prefixes(plain)) {
    let stats: Stats;
    try {
      stats = lstatSync(posix.join(root, part));
    } catch (error) {
      missing(error); // throws anything but a path that is not there
      return undefined;
    }
    if (stats.isSymbolicLink()) return part;
  }
  return undefined;
}

/** `a`, `a/b`, `a/b/c` of `a/b/c`. */
function prefixes(plain: string): string[] {
  const parts = plain.split('/').filter((p) => p !== '');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** A path's own stats (a link as a link), or undefined when nothing is there. */
export function lstatIfThere(path: string): Promise<Stats | undefined> {
  return lstat(path).catch(missing);
}

/** Undefined for a path that is not there (or runs through a file), else the error again. */
function missing(error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw error;
}

/** An attachment opened for reading; close it when done. */
export interface OpenedFile {
  /** The path as given, made plain. */
  path: string;
  /** Its size when opened: what the stream gives. */
  size: number;
  /** The file's bytes, from the opened file itself (once). */
  stream(): Readable;
  /** The same bytes read whole (for a small file: one read instead of a stream). */
  bytes(): Promise<Buffer>;
  close(): Promise<void>;
}

// Never follow a link in the last part; never hang on a FIFO someone put there.
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A sheet's folder as resolve-folder.ts resolves it once for the many files opened in it. */
export interface ResolvedFolder {
  /** Its real path (no link on the way to it). */
  real: string;
  /**
   * On a local disk (Linux only): a small file there is opened, checked and read at once, without
   * four trips through the thread pool; a network share is always read through the pool, so that
   * a server that hangs never stalls the process.
   */
  local: boolean;
  /**
   * Its device: a file of another (a share mounted below the folder since it was resolved) is
   * never read at once.
   */
  dev?: number;
}

/**
 * Whether a regular file with more than one name is refused (the default: an attachment's other
 * name may be outside its folder), or read (the importer's own report files, which a backup made
 * of hard links may well share).
 */
export type HardLinks = 'refuse' | 'allow';

/** What an opened file must be besides a regular file inside its folder. */
interface Fit {
  maxBytes?: number | undefined;
  hardLinks?: HardLinks | undefined;
}

/** A file up to this size, in a local folder, is read whole at once (readAtOnce). */
export const AT_ONCE_BYTES = 256 * 1024;

/**
 * Opens `path` (relative) inside `root` for reading. Refused (AttachmentRefused): a path leading
 * outside, any symbolic link on the way, anything but a regular file, a file over `maxBytes`.
 * A file that is not there throws the system's ENOENT, as opening it would.
 */
export async function openInside(
  root: string,
  path: string,
  options: Fit & { folder?: ResolvedFolder } = {},
): Promise<OpenedFile> {
  const plain = plainRelative(path);
  // A caller that opens many files of one folder resolves it once (resolve-folder.ts): the file
  // opened is still confirmed to lie inside that real folder, however the path to it changes later.
  const realRoot = options.folder?.real ?? (await realpath(root));
  // On Linux the kernel says where the opened file is (confirmOpenedAt): a link on the way shows
  // there, and is looked for only then, to name it. Elsewhere the path is looked at first.
  if (process.platform !== 'linux') await refuseLinkOnTheWay(realRoot, plain, path);
  const where = { realRoot, plain, target: posix.join(realRoot, plain) };
  if (options.folder?.local === true && process.platform === 'linux') {
    const read = await readAtOnce(where, path, options, options.folder.dev);
    if (read !== undefined) return read;
  }
  let handle: FileHandle;
  try {
    handle = await open(where.target, FLAGS);
  } catch (error) {
    return openFailed(error, where, path);
  }
  try {
    const stats = await handle.stat();
    await confirmOpenedAt(handle.fd, where, stats, path);
    refuseUnfit(path, stats, options);
    return openedFile(handle, plain, stats.size);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

interface Where {
  realRoot: string;
  plain: string;
  /** The real folder and the plain path, joined. */
  target: string;
}

/** Why a file could not be opened, as openInside says it. */
async function openFailed(error: unknown, where: Where, path: string): Promise<never> {
  const code = (error as NodeJS.ErrnoException).code;
  // ELOOP (Linux, macOS) or EMLINK (BSD): the last part is a link.
  if (code === 'ELOOP' || code === 'EMLINK') throw linkRefused(path, where.plain);
  // Not there: unless a link on the way leads nowhere, which is refused as any link is.
  if (code === 'ENOENT' || code === 'ENOTDIR')
    await refuseLinkOnTheWay(where.realRoot, where.plain, path);
  throw error;
}

/**
 * A small file of a local folder, opened, checked as openInside checks it, read whole and closed,
 * each a system call made at once; undefined for a file over AT_ONCE_BYTES, or on another device
 * than its folder (read as any other).
 */
async function readAtOnce(
  where: Where,
  path: string,
  fit: Fit,
  dev: number | undefined,
): Promise<OpenedFile | undefined> {
  let fd: number;
  try {
    fd = openSync(where.target, FLAGS);
  } catch (error) {
    return openFailed(error, where, path);
  }
  let bytes: Buffer;
  try {
    const stats = fstatSync(fd);
    await confirmOpenedAt(fd, where, stats, path);
    refuseUnfit(path, stats, fit);
    if (stats.size > AT_ONCE_BYTES || (dev !== undefined && stats.dev !== dev)) return undefined;
    bytes = Buffer.allocUnsafe(stats.size);
    for (let read = 0; read < stats.size;) {
      const n = readSync(fd, bytes, read, stats.size - read, read);
      if (n === 0) throw new Error(`"${where.plain}" became shorter while it was read.`);
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  return {
    path: where.plain,
    size: bytes.length,
    stream: () => Readable.from(bytes.length === 0 ? [] : [bytes]),
    bytes: () => Promise.resolve(bytes),
    close: () => Promise.resolve(),
  };
}

/**
 * `name` in `dir` opened as openInside opens it, or undefined when the folder or the file is not
 * there (AttachmentRefused still says a link or a file that is not plain). For the importer's own
 * files (reports): one with other names is read, as a backup made of hard links shares them.
 */
export async function openInsideIfThere(
  dir: string,
  name: string,
): Promise<OpenedFile | undefined> {
  if (!(await lstatIfThere(dir))?.isDirectory()) return undefined;
  return openInside(dir, name, { hardLinks: 'allow' }).catch(missing);
}

/** Where the kernel says an opened file is (Linux). */
function ownPath(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

async function refuseLinkOnTheWay(realRoot: string, plain: string, path: string): Promise<void> {
  const link = await firstLink(realRoot, plain);
  if (link !== undefined) throw linkRefused(path, link);
}

/** A refusal of `path` for the link `link` on it (itself, or a folder on its way). */
function linkRefused(path: string, link: string): AttachmentRefused {
  const through = posix.normalize(path) === link ? {} : { values: { link } };
  return new AttachmentRefused(path, 'link', linkMessage(path, link), through);
}

function refuseUnfit(path: string, stats: Stats, { maxBytes, hardLinks }: Fit = {}): void {
  if (!stats.isFile()) {
    throw new AttachmentRefused(
      path,
      'not-file',
      `"${path}" is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, not a document.`,
      stats.isDirectory() ? { variant: 'folder' } : {},
    );
  }
  if (stats.nlink > 1 && hardLinks !== 'allow')
    throw new AttachmentRefused(path, 'hard-link', hardLinkMessage(path, stats.nlink), {
      values: { names: stats.nlink },
    });
  if (maxBytes !== undefined && stats.size > maxBytes) {
    throw new AttachmentRefused(
      path,
      'too-large',
      `"${path}" is ${stats.size} bytes, over the limit of ${maxBytes} bytes per attachment (MAX_ATTACHMENT_MB).`,
      { values: { bytes: stats.size, limitBytes: maxBytes } },
    );
  }
}

/**
 * The file opened is the one at `target`, reached without a link: a folder on the path swapped
 * for a link after the look would have led elsewhere. On Linux the kernel says where the opened
 * file is; elsewhere the path, looked at again, must lead to the same file without a link.
 */
async function confirmOpenedAt(
  fd: number,
  where: Where,
  stats: Stats,
  path: string,
): Promise<void> {
  const { target } = where;
  const moved = () =>
    new AttachmentRefused(
      path,
      'link',
      `"${path}" was reached through a symbolic link, or moved, while it was being opened: it was not read.`,
      { variant: 'moved' },
    );
  if (process.platform === 'linux') {
    // procfs, never a network share: asked at once rather than through the thread pool.
    if (ownPath(fd) === target) return;
    await refuseLinkOnTheWay(where.realRoot, where.plain, path);
    throw moved();
  }
  const again = await lstat(target).catch(missing);
  const real = await realpath(target).catch(missing);
  if (again?.ino !== stats.ino || again.dev !== stats.dev || real !== target) throw moved();
}

/**
 * Moves `path` (relative, a regular file) from inside `root` to `to`, never through a link: a
 * link anywhere on its path is refused, and on Linux the file is renamed out of its folder as
 * opened and confirmed (so a folder swapped for a link in the meantime moves nothing). The move
 * itself never follows a link at `to`'s end either: rename replaces, it does not write through.
 * Across file systems it is a copy from the opened file, then the original removed.
 */
export async function moveInside(root: string, path: string, to: string): Promise<void> {
  const plain = plainRelative(path);
  const realRoot = await realpath(root);
  const link = await firstLink(realRoot, plain);
  if (link !== undefined) throw linkRefused(path, link);
  const from = posix.join(realRoot, plain);
  const stats = await lstat(from);
  if (stats.isSymbolicLink()) throw linkRefused(path, plain);
  refuseUnfit(path, stats);
  await mkdir(posix.dirname(to), { recursive: true });
  const folder =
    process.platform === 'linux' ? await openFolder(posix.dirname(from), path) : undefined;
  const source = folder ? `/proc/self/fd/${folder.fd}/${posix.basename(from)}` : from;
  try {
    await rename(source, to);
    // Swapped for a link since the look: the rename moved the link itself; it goes back.
    if ((await lstat(to)).isSymbolicLink()) {
      await rename(to, source);
      throw linkRefused(path, plain);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyInside(root, path, to);
    await unlink(source);
  } finally {
    await folder?.close();
  }
}

/** Copies `path` (relative) from inside `root` to `to`, read as openInside reads it. */
export async function copyInside(root: string, path: string, to: string): Promise<void> {
  const file = await openInside(root, path);
  try {
    await mkdir(posix.dirname(to), { recursive: true });
    await pipeline(file.stream(), createWriteStream(to));
  } finally {
    await file.close();
  }
}

/** A folder opened without following a link, confirmed (Linux) to be where it was looked for. */
async function openFolder(dir: string, path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'ELOOP') throw linkRefused(path, posix.dirname(path));
    throw error;
  }
  if (ownPath(handle.fd) !== dir) {
    await handle.close();
    throw new AttachmentRefused(
      path,
      'link',
      `"${path}" was reached through a symbolic link, or moved, while it was being moved: it stays where it is.`,
      { variant: 'moved-away' },
    );
  }
  return handle;
}

function openedFile(handle: FileHandle, plain: string, size: number): OpenedFile {
  let closed: Promise<void> | undefined;
  return {
    path: plain,
    size,
    stream: () =>
      size === 0
        ? Readable.from([])
        : handle.createReadStream({ start: 0, end: size - 1, autoClose: false }),
    bytes: async () => {
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const { bytesRead } = await handle.read(bytes, read, size - read, read);
        if (bytesRead === 0) throw new Error(`"${plain}" became shorter while it was read.`);
        read += bytesRead;
      }
      return bytes;
    },
    close: () => (closed ??= handle.close()),
  };
}
