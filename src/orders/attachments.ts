/**
 * Attachment checks, all made before any order is created so that an order never exists without
 * its files: each path must name a regular file inside the sheet's folder tree, reached without
 * any symbolic link, with no other name (a hard link), no larger than the limit.
 */
import { realpathSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

import type { MessageKey, Words } from '../language/words.js';
import { Invalid } from './normalise.js';
import { AttachmentRefused, firstLinkSync, plainRelative } from './open-attachment.js';

export interface Attachment {
  /** As the sheet wrote it (slashes normalised). */
  path: string;
  /** Where it was when validated; a worker finds it again from the sheet's folder instead. */
  absolute: string;
  bytes: number;
}

/** Why an attachment is refused: told in the office's words where its row's result is made. */
export type AttachmentCheck =
  { ok: true; attachment: Attachment } | { ok: false; problem: Invalid };

/** What a path refused before the disk is looked at is told. */
const REFUSED_PATH: Partial<Record<AttachmentRefused['kind'], MessageKey>> = {
  invalid: 'rows.attachment.invalidPath',
  absolute: 'rows.attachment.absolute',
  outside: 'rows.attachment.outside',
};

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
    const fail = (
      key: MessageKey,
      values: Record<string, string | number> = {},
    ): AttachmentCheck => ({
      ok: false,
      problem: new Invalid(key, { path, ...values }),
    });
    let plain: string;
    try {
      plain = plainRelative(path);
    } catch (error) {
      const key = error instanceof AttachmentRefused ? REFUSED_PATH[error.kind] : undefined;
      if (key !== undefined) return fail(key);
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
      return fail('rows.attachment.unreadable', { code });
    }
    if (link !== undefined) {
      return plain === link
        ? fail('rows.attachment.link')
        : fail('rows.attachment.linkOnTheWay', { link });
    }
    const absolute = join(this.#root, plain);
    let stats: Stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // Said from the sheet, not the disk: a hot-folder sheet is read from a work folder the
        // user never saw.
        return fail('rows.attachment.missing');
      }
      return fail('rows.attachment.unreadable', { code: code ?? (error as Error).message });
    }
    if (!stats.isFile()) {
      return fail(stats.isDirectory() ? 'rows.attachment.folder' : 'rows.attachment.notFile');
    }
    // Its other name may be anywhere on the disk: the upload refuses it too (open-attachment.ts).
    if (stats.nlink > 1) return fail('rows.attachment.hardLink', { names: String(stats.nlink) });
    if (stats.size > this.maxBytes) {
      return fail('rows.attachment.tooLarge', {
        // Megabytes as the language writes a number; bytes as digits, to be compared by eye.
        ...{ size: megabytes(stats.size), bytes: String(stats.size) },
        ...{ limit: megabytes(this.maxBytes), limitBytes: String(this.maxBytes) },
      });
    }
    return { ok: true, attachment: { path, absolute, bytes: stats.size } };
  }
}

/**
 * Why a file is refused when it is read (an upload, a copy): the same words validation uses for
 * it, in `words`, from what the refusal carries.
 */
export function refusalText(words: Words, error: AttachmentRefused): string {
  const { path, kind, variant } = error;
  const values = error.values ?? {};
  const number = (name: string) => Number(values[name] ?? 0);
  switch (kind) {
    case 'link':
      if (variant === 'moved') return words.t('rows.attachment.moved', { path });
      if (variant === 'moved-away') return words.t('rows.attachment.movedAway', { path });
      return values.link === undefined
        ? words.t('rows.attachment.link', { path })
        : words.t('rows.attachment.linkOnTheWay', { path, link: String(values.link) });
    case 'hard-link':
      return words.t('rows.attachment.hardLink', { path, names: String(values.names ?? '') });
    case 'not-file':
      return words.t(variant === 'folder' ? 'rows.attachment.folder' : 'rows.attachment.notFile', {
        path,
      });
    case 'too-large':
      return words.t('rows.attachment.tooLarge', {
        ...{ path, size: megabytes(number('bytes')), bytes: String(number('bytes')) },
        ...{ limit: megabytes(number('limitBytes')), limitBytes: String(number('limitBytes')) },
      });
    default:
      return words.t(REFUSED_PATH[kind] ?? 'rows.attachment.invalidPath', { path });
  }
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 100) / 100;
}
