/**
 * Attachment checks, all made before any order is created so that an order never exists without
 * its files: each path must name a regular file inside the sheet's folder tree (after resolving
 * links), no larger than the limit.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export interface Attachment {
  /** As the sheet wrote it (slashes normalised). */
  path: string;
  /** Where it is on disk, links resolved. */
  absolute: string;
  bytes: number;
}

export type AttachmentCheck = { ok: true; attachment: Attachment } | { ok: false; message: string };

/**
 * Checks attachments of one sheet. Results are cached by path: many rows of a sheet often share a
 * document, and a sheet of a million rows must not stat the same file a million times. The checks
 * are synchronous on purpose: a local stat is microseconds, a thread-pool round trip is not.
 */
export class AttachmentChecker {
  readonly #root: string;
  readonly #cache = new Map<string, AttachmentCheck>();

  constructor(
    sheetDir: string,
    private readonly maxBytes: number,
  ) {
    this.#root = realpathSync(sheetDir);
  }

  check(path: string): AttachmentCheck {
    let result = this.#cache.get(path);
    if (result === undefined) {
      result = this.#check(path);
      if (this.#cache.size > 100_000) this.#cache.clear(); // bounded, whatever the sheet
      this.#cache.set(path, result);
    }
    return result;
  }

  #check(path: string): AttachmentCheck {
    const fail = (message: string): AttachmentCheck => ({ ok: false, message });
    if (path.includes('\0')) return fail(`"${path}" is not a valid path.`);
    if (isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('//')) {
      return fail(`"${path}" is an absolute path: give the path relative to the sheet's folder.`);
    }
    const lexical = resolve(this.#root, path);
    if (!inside(this.#root, lexical)) {
      return fail(
        `"${path}" points outside the sheet's folder: attachments must be in that folder or below it.`,
      );
    }
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        return fail(`"${path}" does not exist (looked for ${lexical}).`);
      }
      return fail(`"${path}" cannot be read (${code ?? (error as Error).message}).`);
    }
    if (!inside(this.#root, real)) {
      return fail(`"${path}" is a link to a file outside the sheet's folder.`);
    }
    const stats = statSync(real);
    if (!stats.isFile())
      return fail(
        `"${path}" is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, not a document.`,
      );
    if (stats.size > this.maxBytes) {
      return fail(
        `"${path}" is ${megabytes(stats.size)} MB (${stats.size} bytes), over the limit of ${megabytes(this.maxBytes)} MB (${this.maxBytes} bytes) per attachment (MAX_ATTACHMENT_MB).`,
      );
    }
    return { ok: true, attachment: { path, absolute: real, bytes: stats.size } };
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2).replace(/\.?0+$/, '');
}
