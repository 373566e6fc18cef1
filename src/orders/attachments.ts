/**
 * Attachment checks, all made before any order is created so that an order never exists without
 * its files: each path must name a regular file inside the sheet's folder tree, reached without
 * any symbolic link, with no other name (a hard link), no larger than the limit.
 */
import { realpathSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

import {
  AttachmentRefused,
  firstLinkSync,
  hardLinkMessage,
  linkMessage,
  plainRelative,
} from './open-attachment.js';

export interface Attachment {
  /** As the sheet wrote it (slashes normalised). */
  path: string;
  /** Where it was when validated; a worker finds it again from the sheet's folder instead. */
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
    let plain: string;
    try {
      plain = plainRelative(path);
    } catch (error) {
      if (error instanceof AttachmentRefused) return fail(error.message);
      throw error;
    }
    // Any link on the way is refused, even one that stays inside: files are never read through
    // one (open-attachment.ts), and validation must not pass what the upload would refuse.
    let link: string | undefined;
    try {
      link = firstLinkSync(this.#root, plain);
    } catch (error) {
      // A name too long, a folder it may not enter…: what the sheet names cannot be read, which
      // is a problem of its row, never of the whole sheet.
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== 'string') throw error;
      return fail(`"${path}" cannot be read (${code}).`);
    }
    if (link !== undefined) return fail(linkMessage(path, link));
    const absolute = join(this.#root, plain);
    let stats: Stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // Said from the sheet, not the disk: a hot-folder sheet is read from a work folder the
        // user never saw.
        return fail(
          `"${path}" does not exist beside the sheet: a document is named relative to the sheet's folder, and dropped together with it.`,
        );
      }
      return fail(`"${path}" cannot be read (${code ?? (error as Error).message}).`);
    }
    if (!stats.isFile())
      return fail(
        `"${path}" is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, not a document.`,
      );
    // Its other name may be anywhere on the disk: the upload refuses it too (open-attachment.ts).
    if (stats.nlink > 1) return fail(hardLinkMessage(path, stats.nlink));
    if (stats.size > this.maxBytes) {
      return fail(
        `"${path}" is ${megabytes(stats.size)} MB (${stats.size} bytes), over the limit of ${megabytes(this.maxBytes)} MB (${this.maxBytes} bytes) per attachment (MAX_ATTACHMENT_MB).`,
      );
    }
    return { ok: true, attachment: { path, absolute, bytes: stats.size } };
  }
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2).replace(/\.?0+$/, '');
}
