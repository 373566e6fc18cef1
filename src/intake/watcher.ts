/**
 * The hot folder: chokidar on the inbox and its subfolders (a folder holding a sheet and its
 * documents can be dropped whole). Every sheet, also one already there at start-up (chokidar's
 * awaitWriteFinish does not cover those), goes through the intake's own stability check.
 */
import { setMaxListeners } from 'node:events';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

import { type FSWatcher, watch } from 'chokidar';
import type { Logger } from 'pino';

import { wordsFor } from '../language/words.js';
import { isMappingFile } from '../orders/mapping-files.js';
import { type Said, said, say } from '../sheets/said.js';
import { EmptyFolders } from './empty-folders.js';
import {
  isIgnoredPath,
  isSheetCandidate,
  lstatIfThere,
  statIfThere,
  unreadableFormatHint,
} from './files.js';
import type { Intake, IntakeResult } from './intake.js';
import { MAX_DEPTH, sheetsIn } from './sheets-in.js';
import { INBOX_POLL_EVERY_MS, inboxWaits } from '../policy.js';

export interface WatcherOptions {
  inboxDir: string;
  /** An intake, or one routing each sheet to its connection's (routes.ts). */
  intake: Pick<Intake, 'take' | 'refuse'>;
  /** Folders of the inbox never removed when emptied (the connections' subfolders). */
  keep?: readonly string[];
  stableMs: number;
  /** Poll instead of waiting for file events (network shares send none). */
  polling: boolean;
  logger: Logger;
  /** Told of every intake's outcome (for the start-up message and tests). */
  onResult?: (path: string, result: IntakeResult) => void;
  /**
   * Told, once per file, of a file that looks meant as a sheet but cannot be one (a workbook):
   * `why` in English, `said` for a person's words.
   */
  onRefused?: (path: string, why: string, said: Said) => void;
}

export interface RunningWatcher {
  /** Resolves once the inbox has been scanned the first time. */
  ready: Promise<void>;
  /** Stops taking sheets; waits for the intakes under way. */
  close(): Promise<void>;
}

/** What the watcher's handlers share while it runs. */
interface WatcherRun {
  options: WatcherOptions;
  /** Aborted at close: every sheet being taken waits on this one signal. */
  signal: AbortSignal;
  /** The intakes under way, for close to wait on. */
  underway: Set<Promise<void>>;
  /** The inbox's folders emptied by intakes, removed once they stay empty a while. */
  emptied: EmptyFolders;
}

export function startWatcher(options: WatcherOptions): RunningWatcher {
  const abort = new AbortController();
  // Every sheet being taken waits on this one signal: a folder of many sheets is no leak.
  setMaxListeners(10_000, abort.signal);
  const run: WatcherRun = {
    options,
    signal: abort.signal,
    underway: new Set(),
    emptied: new EmptyFolders(
      options.inboxDir,
      inboxWaits(options.stableMs).emptyFolderGraceMs,
      options.logger,
      new Set(options.keep),
    ),
  };
  const handle = (path: string) => {
    handleInboxPath(run, path);
  };
  const watcher = watchInbox(options, handle);
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      resolve();
    }),
  );
  const rescans = startRescans(run, handle);
  return {
    ready,
    close: async () => {
      abort.abort();
      clearInterval(rescans);
      await run.emptied.close();
      await watcher.close();
      await Promise.allSettled([...run.underway]);
    },
  };
}

/** Chokidar on the inbox, every added or changed path handed to `handle`. */
function watchInbox(options: WatcherOptions, handle: (path: string) => void): FSWatcher {
  const watcher = watch(options.inboxDir, {
    ignored: (path) => path !== options.inboxDir && isIgnoredPath(path),
    ignoreInitial: false,
    // A link (to a sheet, a folder, anything) is reported as itself and never entered: the
    // intake then refuses it, and says why.
    followSymlinks: false,
    depth: MAX_DEPTH,
    usePolling: options.polling,
    interval: INBOX_POLL_EVERY_MS,
    awaitWriteFinish: {
      stabilityThreshold: options.stableMs,
      pollInterval: inboxWaits(options.stableMs).writeFinishLookMs,
    },
  });
  watcher.on('add', handle);
  watcher.on('change', handle);
  watcher.on('error', (error) => {
    options.logger.error({ err: error }, 'inbox watcher error');
  });
  return watcher;
}

/**
 * File events can be lost (chokidar's awaitWriteFinish, a busy share): a sheet still in the
 * inbox a while later is looked for directly. One being taken already is skipped by the intake.
 */
function startRescans(run: WatcherRun, handle: (path: string) => void): NodeJS.Timeout {
  const { inboxDir, stableMs, logger } = run.options;
  let rescanning = false;
  const rescans = setInterval(() => {
    if (rescanning || run.signal.aborted) return;
    rescanning = true;
    sheetsIn(inboxDir)
      .then((paths) => {
        for (const path of paths) handle(path);
      })
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'inbox rescan failed; the next one tries again');
      })
      .finally(() => {
        rescanning = false;
      });
  }, inboxWaits(stableMs).rescanEveryMs);
  rescans.unref();
  return rescans;
}

/** A path seen in the inbox: a sheet is taken in the background; anything else may be told. */
function handleInboxPath(run: WatcherRun, path: string): void {
  if (run.signal.aborted) return;
  if (isMappingFile(path)) {
    offerSheetsBeside(run, path);
    return;
  }
  if (!isSheetCandidate(path)) {
    tellIfNotTaken(run.options, path);
    return;
  }
  const { intake, logger, onResult } = run.options;
  const work = intake
    .take(path, run.signal, run.options.inboxDir)
    .then((result) => {
      if (result.kind === 'queued' || result.kind === 'unreadable') run.emptied.add(result.from);
      onResult?.(path, result);
    })
    .catch((error: unknown) => {
      if (run.signal.aborted) return;
      logger.error(
        { sheet: path, err: error },
        'intake failed; a sheet still in the inbox is tried again at the next rescan',
      );
    })
    .finally(() => run.underway.delete(work));
  run.underway.add(work);
}

/**
 * A mapping.json written or fixed: the sheets beside it that wait for a usable mapping are
 * offered again now, rather than at the next rescan (one being taken already is skipped).
 */
function offerSheetsBeside(run: WatcherRun, mapping: string): void {
  const folder = dirname(mapping);
  readdir(folder, { withFileTypes: true })
    .then((entries) => {
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.isFile() && isSheetCandidate(path)) handleInboxPath(run, path);
      }
    })
    .catch((error: unknown) => {
      run.options.logger.warn({ folder, err: error }, 'could not look beside a mapping.json');
    });
}

/** Tells of a file that is no sheet when it looks meant as one (a workbook) or is a linked folder. */
function tellIfNotTaken(options: WatcherOptions, path: string): void {
  const { intake, logger } = options;
  const tell = (why: Said) => {
    const reason = say(wordsFor('en'), why);
    intake
      .refuse(path, why)
      .then((news) => {
        if (news) options.onRefused?.(path, reason, why);
      })
      .catch((error: unknown) => {
        logger.warn({ path, reason, err: error }, 'could not record a file not taken');
      });
  };
  const hint = unreadableFormatHint(path);
  if (hint !== undefined) {
    tell(hint);
    return;
  }
  linkedFolderText(options.inboxDir, path)
    .then((linked) => {
      if (linked !== undefined) tell(linked);
    })
    .catch((error: unknown) => {
      logger.warn({ path, err: error }, 'could not look at a file in the inbox');
    });
}

/**
 * What to tell of a link to a folder found in the inbox (the watcher does not enter it), or
 * undefined for anything else. A link to a file is told by the intake of the sheet naming it.
 */
async function linkedFolderText(inbox: string, path: string): Promise<Said | undefined> {
  if (!(await lstatIfThere(path))?.isSymbolicLink()) return undefined;
  // Only to tell a folder from a file: nothing in it is looked at. A target that cannot be
  // looked at (a loop of links, no permission) is no folder to say anything of.
  const target = await statIfThere(path).catch(() => undefined);
  if (!target?.isDirectory()) return undefined;
  return said('sheets.notTaken.linkedFolder', { path: relative(inbox, path) });
}
