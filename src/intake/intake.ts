/**
 * **intake** → sheet → rows → report: takes a sheet dropped in the inbox (or found by a
 * schedule) once it has stopped changing, moves it with the attachments it refers to into
 * `work/<sheetId>/`, and queues it. An unreadable sheet goes to `failed/` with an error file.
 * Nothing is ever deleted; a crash at any step is finished by `recover()` at the next start.
 * No link is followed: a linked sheet, a sheet in a linked folder and a linked attachment stay
 * where they are, and the intake says why (`refuse`).
 */
import { link, mkdir, readdir, readFile, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';

import type { Logger } from 'pino';
import { z } from 'zod';

import type { Context } from '../context.js';
import {
  AttachmentRefused,
  copyInside,
  firstLink,
  linkMessage,
  moveInside,
  plainRelative,
} from '../orders/open-attachment.js';
import { newSheetId, submitSheet } from './submit.js';
import { SheetError } from '../sheets/errors.js';
import { readSheet } from '../sheets/read-sheet.js';
import {
  fileSignature,
  isSheetCandidate,
  lstatIfThere,
  moveFile,
  statIfThere,
  waitStable,
} from './files.js';

/** What `recover()` found in `work/`. */
export interface Recovery {
  /** The sheets of intakes a crash interrupted, now queued. */
  finished: string[];
  /** Work folders queued once but unknown to Redis now: nothing will happen to them by itself. */
  stranded: string[];
}

export interface IntakeOptions {
  /** Sheets taken are queued for this context's connection. */
  ctx: Context;
  workDir: string;
  failedDir: string;
  /** How long a sheet (and each attachment) must stay unchanged before it is taken. */
  stableMs: number;
  logger: Logger;
  now?: () => number;
}

export type IntakeResult =
  /** `from`: the folders it moved files out of, which may now be empty. */
  | { kind: 'queued'; sheetId: string; resumed: boolean; from: string[] }
  | { kind: 'unreadable'; folder: string; from: string[] }
  /** A link (the sheet, or a folder on its way from the inbox): left where it is, and said why. */
  | { kind: 'refused'; why: string }
  /** Not a sheet, gone, or taken by another watcher first. */
  | { kind: 'skipped'; why: string };

/** Written first into each work folder: where the sheet came from, and how far its intake got. */
const journalSchema = z.object({
  source: z.string(),
  files: z.array(z.string()),
  queued: z.boolean(),
});
type Journal = z.infer<typeof journalSchema>;
const JOURNAL = '.intake.json';

export class Intake {
  readonly #inFlight = new Set<string>();
  /** Work folders this process is finishing now: a recovery pass leaves them be. */
  readonly #finishing = new Set<string>();
  /** Per source folder, the intake now moving files out of it (see #oneAtATime). */
  readonly #folderTurns = new Map<string, Promise<unknown>>();
  /** What each sibling sheet names, by its path and version (see #siblingFiles). */
  readonly #siblings = new Map<string, { version: string; files: readonly string[] }>();
  /** What was said about a path not taken, by path, so that a rescan does not say it again. */
  readonly #told = new Map<string, string>();
  readonly #now: () => number;

  constructor(private readonly options: IntakeOptions) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Takes one sheet; a path already being taken is skipped (watch events repeat). `root` is the
   * watched or scanned folder: no folder between it and the sheet may be a link.
   */
  async take(path: string, signal?: AbortSignal, root?: string): Promise<IntakeResult> {
    if (!isSheetCandidate(path)) return { kind: 'skipped', why: 'not a sheet' };
    if (this.#inFlight.has(path)) return { kind: 'skipped', why: 'already being taken' };
    this.#inFlight.add(path);
    try {
      const linked = await linkedSheetProblem(path, root);
      if (linked !== undefined) return await this.#refused(path, linked);
      return await this.#take(path, signal);
    } finally {
      this.#inFlight.delete(path);
      this.#siblings.delete(path); // moved on: the next one there is another sheet
    }
  }

  /**
   * Says why a path in the inbox is not taken — a log line, and an entry in the list of sheets
   * not taken that the dashboard shows — once per version of it; true when that was news.
   */
  async refuse(path: string, why: string): Promise<boolean> {
    const stats = await lstatIfThere(path);
    const version = `${stats?.ino ?? ''}:${stats?.mtimeMs ?? ''}:${why}`;
    if (this.#told.get(path) === version) return false;
    if (this.#told.size >= 10_000) this.#told.clear(); // bounded: at worst something is said twice
    this.#told.set(path, version);
    this.options.logger.warn({ path, reason: why }, 'not taken from the inbox');
    await this.options.ctx.notTaken.add(path, why);
    return true;
  }

  async #refused(path: string, why: string): Promise<IntakeResult> {
    return (await this.refuse(path, why))
      ? { kind: 'refused', why }
      : { kind: 'skipped', why: 'refused before' };
  }

  async #take(path: string, signal?: AbortSignal): Promise<IntakeResult> {
    for (;;) {
      const result = await this.#takeAsIs(path, signal);
      // Rewritten while its attachments were awaited: its list of files may be another now.
      if (result !== 'changed') return result;
      this.options.logger.info({ sheet: path }, 'sheet changed while being taken; taken anew');
    }
  }

  async #takeAsIs(path: string, signal?: AbortSignal): Promise<IntakeResult | 'changed'> {
    const { stableMs, logger } = this.options;
    if (!(await waitStable(path, stableMs, signal ? { signal } : {})))
      return { kind: 'skipped', why: 'gone' };
    const read = await fileSignature(path);
    const sheetId = newSheetId(this.#now());
    let files: string[];
    try {
      files = await this.#takeable(path, await this.#referencedFiles(path));
    } catch (error) {
      if (!(error instanceof SheetError)) throw error;
      return this.#unreadable(path, sheetId, error);
    }
    // Gone is not changed: another watcher took it, and the claim below says so.
    const changed = async () => {
      const now = await fileSignature(path);
      return now !== null && now !== read;
    };
    await this.#attachmentsSettled(dirname(path), files, changed, signal);

    return this.#oneAtATime(dirname(path), async () => {
      // Waited for its turn while the process began to stop: it stays in the inbox.
      if (signal?.aborted) return { kind: 'skipped', why: 'stopping' };
      if (await changed()) return 'changed';
      const work = join(this.options.workDir, sheetId);
      await mkdir(work, { recursive: true });
      await this.#journal(work, { source: path, files, queued: false });
      try {
        await moveFile(path, join(work, basename(path))); // the claim: the first rename wins
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await rm(work, { recursive: true, force: true }); // only our own journal is in it
        return { kind: 'skipped', why: 'taken by another watcher' };
      }
      logger.info({ sheetId, sheet: path }, 'sheet taken from the inbox');
      try {
        return await this.#finish(work, { source: path, files, queued: false });
      } catch (error) {
        logger.error(
          { sheetId, sheet: path, work, err: error },
          'intake stopped after the sheet was moved to work/: the next recovery pass finishes it',
        );
        throw error;
      }
    });
  }

  /**
   * Sheets of one folder are moved out one after the other: each then sees the sheets still
   * waiting beside it, and copies the documents they share instead of taking them away.
   */
  async #oneAtATime<T>(folder: string, work: () => Promise<T>): Promise<T> {
    const before = this.#folderTurns.get(folder) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.#folderTurns.set(folder, settled);
    try {
      return await mine;
    } finally {
      if (this.#folderTurns.get(folder) === settled) this.#folderTurns.delete(folder);
    }
  }

  /**
   * Brings the attachments that are still beside the source, then queues the sheet. An
   * attachment another sheet in the same folder still needs (a shared `documents/`) is copied,
   * not moved: the last sheet to need it takes it along.
   */
  async #finish(work: string, journal: Journal): Promise<IntakeResult> {
    this.#finishing.add(work);
    try {
      return await this.#finishNow(work, journal);
    } finally {
      this.#finishing.delete(work);
    }
  }

  async #finishNow(work: string, journal: Journal): Promise<IntakeResult> {
    const sourceDir = dirname(journal.source);
    const claimed = join(work, basename(journal.source));
    // Swapped for a link between the look and the claim (the rename moved the link itself).
    if ((await lstatIfThere(claimed))?.isSymbolicLink())
      return this.#putBack(claimed, journal.source, work);
    const stillNeeded = await this.#neededBySiblings(journal.source, work);
    const keep = (file: string) => stillNeeded === 'all' || stillNeeded.has(file);
    const emptied = new Set([sourceDir]);
    for (const file of journal.files) {
      // Only inside the sheet's own folder, as validation demands; others stay where they are.
      const plain = plainOrUndefined(file);
      if (plain === undefined) continue;
      const from = join(sourceDir, plain);
      try {
        if (keep(from)) await copyInside(sourceDir, plain, join(work, plain));
        else {
          await moveInside(sourceDir, plain, join(work, plain));
          emptied.add(dirname(from));
        }
      } catch (error) {
        if (error instanceof AttachmentRefused) {
          // A link: it stays, and is said. Anything else refused is what validation will say.
          if (error.kind === 'link')
            await this.refuse(from, attachmentLinkText(journal.source, error.message));
          continue;
        }
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // moved already, or never there
      }
    }
    const sheetId = basename(work);
    const { resumed } = await submitSheet(this.options.ctx, join(work, basename(journal.source)), {
      sheetId,
    });
    await this.#journal(work, { ...journal, queued: true });
    return { kind: 'queued', sheetId, resumed, from: [...emptied] };
  }

  /**
   * Finishes the intakes a crash interrupted: a work folder whose sheet arrived gets its
   * attachments and its queueing; one whose sheet never arrived is dropped (the sheet is still
   * in the inbox and will be taken again). `minAgeMs` leaves alone the journals younger than
   * that, which are most likely another process's intake under way (finishing one twice does
   * no harm, but is not needed).
   */
  async recover({ minAgeMs = 0 } = {}): Promise<Recovery> {
    const recovery: Recovery = { finished: [], stranded: [] };
    const entries = await readdir(this.options.workDir).catch(() => []);
    for (const sheetId of entries) {
      const work = join(this.options.workDir, sheetId);
      if (this.#finishing.has(work)) continue;
      const written = (await statIfThere(join(work, JOURNAL)))?.mtimeMs;
      // A folder with no journal is named (by #readJournal) at start only, not at every pass.
      if (written === undefined ? minAgeMs > 0 : this.#now() - written < minAgeMs) continue;
      const journal = await this.#readJournal(work);
      if (!journal) continue;
      if (journal.queued) {
        // Queued, yet unknown to Redis (its data lost): importing it again could send orders
        // twice, so it waits for a person, who is told.
        if ((await this.options.ctx.store.get(sheetId)) === undefined) {
          this.options.logger.warn({ sheetId, work }, 'queued sheet unknown to Redis; left alone');
          recovery.stranded.push(work);
        }
        continue;
      }
      const sheet = join(work, basename(journal.source));
      if (!(await exists(sheet))) {
        await this.#dropEmptyWork(work, journal);
        continue;
      }
      const result = await this.#finish(work, journal);
      if (result.kind === 'queued') recovery.finished.push(result.sheetId);
    }
    return recovery;
  }

  /**
   * The attachments (absolute paths) that the other sheets beside this one name, and those of
   * sheets from the same folder whose intake is under way elsewhere (another watch process);
   * `'all'` while a sibling is still being written, since what it will name is not known yet.
   */
  async #neededBySiblings(sheet: string, work: string): Promise<Set<string> | 'all'> {
    const dir = dirname(sheet);
    const needed = new Set<string>();
    const siblings = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of siblings) {
      const path = join(dir, entry.name);
      if (!entry.isFile() || path === sheet || !isSheetCandidate(path)) continue;
      const stats = await statIfThere(path);
      if (stats === undefined) continue; // taken meanwhile: its journal, read below, tells
      if (this.#now() - stats.mtimeMs < this.options.stableMs) return 'all';
      try {
        const version = `${stats.size}:${stats.mtimeMs}`;
        for (const file of await this.#siblingFiles(path, version)) needed.add(join(dir, file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // taken meanwhile
        if (!(error instanceof SheetError)) throw error; // an unreadable sibling needs nothing
      }
    }
    // After the siblings: one taken away meanwhile wrote its journal before it went.
    for (const other of await readdir(this.options.workDir).catch(() => [])) {
      const folder = join(this.options.workDir, other);
      if (folder === work) continue;
      const journal = await this.#readJournal(folder, { quiet: true });
      // Not this very sheet: a watcher that lost the race for it leaves a journal a moment.
      if (
        journal &&
        !journal.queued &&
        journal.source !== sheet &&
        dirname(journal.source) === dir
      ) {
        for (const file of journal.files) needed.add(join(dir, file));
      }
    }
    return needed;
  }

  /**
   * A sibling's attachments, read once per version of it: a folder of many sheets would
   * otherwise have every sheet read by every other one.
   */
  async #siblingFiles(path: string, version: string): Promise<readonly string[]> {
    const known = this.#siblings.get(path);
    if (known?.version === version) return known.files;
    const files = await this.#referencedFiles(path);
    this.#siblings.set(path, { version, files });
    return files;
  }

  /**
   * The attachments the intake may take along: those inside the sheet's folder and reached
   * without a link. A link is said (once) and stays; its row's validation then refuses it.
   */
  async #takeable(sheet: string, files: readonly string[]): Promise<string[]> {
    const dir = dirname(sheet);
    const takeable: string[] = [];
    for (const file of files) {
      const plain = plainOrUndefined(file);
      if (plain === undefined) continue;
      const link = await firstLink(dir, plain);
      if (link === undefined) takeable.push(plain);
      else await this.refuse(join(dir, plain), attachmentLinkText(sheet, linkMessage(file, link)));
    }
    return takeable;
  }

  /**
   * Puts a sheet that turned out to be a link back where it was, untaken; never over something
   * that is there now (a hard link of the link fails then, and it stays in its folder, whose
   * journal goes so that no recovery takes it).
   */
  async #putBack(claimed: string, source: string, folder: string): Promise<IntakeResult> {
    await rm(join(folder, JOURNAL), { force: true });
    try {
      await link(claimed, source);
      await unlink(claimed);
      await rmdir(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
      this.options.logger.warn({ sheet: source, left: claimed }, 'linked sheet left where it is');
    }
    return this.#refused(source, linkedSheetText(source, undefined));
  }

  /** Every attachment path the sheet's rows give (valid rows or not). */
  async #referencedFiles(path: string): Promise<string[]> {
    const opened = await readSheet(path, {
      catalogue: this.options.ctx.catalogue,
      maxAttachmentBytes: this.options.ctx.settings.maxAttachmentBytes,
    });
    const files = new Set<string>();
    for await (const batch of opened.batches) {
      for (const row of batch) {
        for (const file of row.ok ? row.attachments.map((a) => a.path) : row.files) files.add(file);
      }
    }
    return [...files];
  }

  /** Waits (bounded) for attachments still being copied next to the sheet. */
  async #attachmentsSettled(
    dir: string,
    files: readonly string[],
    sheetChanged: () => Promise<boolean>,
    signal?: AbortSignal,
  ): Promise<void> {
    const deadline = this.#now() + Math.max(10_000, this.options.stableMs * 5);
    await Promise.all(
      files.map(async (file) => {
        const path = join(dir, file);
        // A sheet rewritten meanwhile may no longer name the file: no use waiting for it.
        while (!(await exists(path)) && this.#now() < deadline && !(await sheetChanged())) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          if (signal?.aborted) return;
        }
        await waitStable(path, this.options.stableMs, { deadline, ...(signal && { signal }) });
      }),
    );
  }

  async #unreadable(path: string, sheetId: string, error: SheetError): Promise<IntakeResult> {
    const folder = join(this.options.failedDir, `${sheetId}-${basename(path)}`);
    const moved = join(folder, basename(path));
    await moveFile(path, moved);
    // Swapped for a link while it was read: what was read is not the user's to show.
    if ((await lstatIfThere(moved))?.isSymbolicLink()) return this.#putBack(moved, path, folder);
    await writeFile(
      join(folder, 'error.txt'),
      `${basename(path)} cannot be read, so no order was made from it:\n\n${error.message}\n\nFix the sheet and drop it into the inbox again.\n`,
    );
    this.options.logger.warn(
      { sheet: path, folder, reason: error.message },
      'unreadable sheet moved to failed/',
    );
    await this.options.ctx.notTaken.add(
      path,
      `cannot be read, so it was moved to ${folder}: ${error.message}`,
    );
    return { kind: 'unreadable', folder, from: [dirname(path)] };
  }

  async #journal(work: string, journal: Journal): Promise<void> {
    await writeFile(join(work, JOURNAL), `${JSON.stringify(journal, null, 2)}\n`);
  }

  /**
   * Removes a work folder whose sheet never arrived: its journal, then the folder itself only if
   * empty. Another watch process may be moving the sheet in this very moment; rmdir then
   * refuses, and the sheet stays (never `rm -r` here).
   */
  async #dropEmptyWork(work: string, journal: Journal): Promise<void> {
    await rm(join(work, JOURNAL), { force: true });
    try {
      await rmdir(work);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw error;
      if (code === 'ENOENT') return;
      // Its sheet is arriving after all: the journal goes back, for whoever finishes it.
      await this.#journal(work, journal);
      this.options.logger.warn({ work }, 'work folder not empty after all; left as it is');
    }
  }

  /** `quiet`: another intake may be writing it this very moment, so a miss is no news. */
  async #readJournal(work: string, { quiet = false } = {}): Promise<Journal | undefined> {
    try {
      return journalSchema.parse(JSON.parse(await readFile(join(work, JOURNAL), 'utf8')));
    } catch (error) {
      const midWrite =
        error instanceof SyntaxError || (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (quiet && midWrite) return undefined;
      this.options.logger.warn(
        { work, err: error },
        'work folder without a readable intake journal',
      );
      return undefined;
    }
  }
}

/** An attachment's path made plain, or undefined for one that leads out of its sheet's folder. */
function plainOrUndefined(file: string): string | undefined {
  try {
    return plainRelative(file);
  } catch (error) {
    if (error instanceof AttachmentRefused) return undefined;
    throw error;
  }
}

/**
 * Why a sheet must not be taken for a link — it is one, or a folder between `root` (the watched
 * or scanned folder) and it is one — or undefined. Nothing is read through the link.
 */
async function linkedSheetProblem(
  path: string,
  root: string | undefined,
): Promise<string | undefined> {
  if ((await lstatIfThere(path))?.isSymbolicLink()) return linkedSheetText(path, root);
  if (root === undefined) return undefined;
  const between = relative(root, dirname(path));
  if (between === '' || between.startsWith('..') || isAbsolute(between)) return undefined;
  const link = await firstLink(root, between);
  return link === undefined ? undefined : linkedSheetText(path, root, link);
}

function linkedSheetText(path: string, root: string | undefined, folder?: string): string {
  const shown = root === undefined ? path : relative(root, path);
  return folder === undefined
    ? `${shown} is a symbolic link: the hot folder takes no linked sheet and reads nothing through a link. It stays where it is; put the file itself in the inbox.`
    : `${shown} is in ${folder}, a symbolic link to a folder: the hot folder does not follow links. It stays where it is; put the folder itself in the inbox.`;
}

function attachmentLinkText(sheet: string, why: string): string {
  return `${basename(sheet)}: ${why} It stays in the inbox, and its row is refused.`;
}

async function exists(path: string): Promise<boolean> {
  return (await statIfThere(path)) !== undefined;
}
