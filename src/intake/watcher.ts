/**
 * The hot folder: chokidar on the inbox and its subfolders (a folder holding a sheet and its
 * documents can be dropped whole). Every sheet, also one already there at start-up (chokidar's
 * awaitWriteFinish does not cover those), goes through the intake's own stability check.
 */
import { setMaxListeners } from 'node:events';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

import { watch } from 'chokidar';
import type { Logger } from 'pino';

import { EmptyFolders } from './empty-folders.js';
import {
  isIgnoredPath,
  isSheetCandidate,
  lstatIfThere,
  statIfThere,
  unreadableFormatHint,
} from './files.js';
import type { Intake, IntakeResult } from './intake.js';

/** Folders deeper than this in the inbox (or a scanned folder) are not looked into. */
export const MAX_DEPTH = 32;

export interface WatcherOptions {
  inboxDir: string;
  intake: Intake;
  stableMs: number;
  /** Poll instead of waiting for file events (network shares send none). */
  polling: boolean;
  logger: Logger;
  /** Told of every intake's outcome (for the start-up message and tests). */
  onResult?: (path: string, result: IntakeResult) => void;
  /** Told, once per file, of a file that looks meant as a sheet but cannot be one (a workbook). */
  onRefused?: (path: string, why: string) => void;
}

export interface RunningWatcher {
  /** Resolves once the inbox has been scanned the first time. */
  ready: Promise<void>;
  /** Stops taking sheets; waits for the intakes under way. */
  close(): Promise<void>;
}

export function startWatcher(options: WatcherOptions): RunningWatcher {
  const { intake, logger } = options;
  const abort = new AbortController();
  // Every sheet being taken waits on this one signal: a folder of many sheets is no leak.
  setMaxListeners(10_000, abort.signal);
  const underway = new Set<Promise<void>>();
  const tidy = new EmptyFolders(options.inboxDir, Math.max(5000, options.stableMs * 5), logger);
  const refuse = (path: string, why: string) => {
    intake
      .refuse(path, why)
      .then((news) => {
        if (news) options.onRefused?.(path, why);
      })
      .catch((error: unknown) => {
        logger.warn({ path, reason: why, err: error }, 'could not record a file not taken');
      });
  };
  const take = (path: string) => {
    if (abort.signal.aborted) return;
    if (!isSheetCandidate(path)) {
      const why = unreadableFormatHint(path);
      if (why !== undefined) refuse(path, why);
      else
        linkedFolderText(options.inboxDir, path)
          .then((linked) => {
            if (linked !== undefined) refuse(path, linked);
          })
          .catch((error: unknown) => {
            logger.warn({ path, err: error }, 'could not look at a file in the inbox');
          });
      return;
    }
    const work = intake
      .take(path, abort.signal, options.inboxDir)
      .then((result) => {
        if (result.kind === 'queued' || result.kind === 'unreadable') tidy.add(result.from);
        options.onResult?.(path, result);
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        logger.error(
          { sheet: path, err: error },
          'intake failed; a sheet still in the inbox is tried again at the next rescan',
        );
      })
      .finally(() => underway.delete(work));
    underway.add(work);
  };
  const watcher = watch(options.inboxDir, {
    ignored: (path) => path !== options.inboxDir && isIgnoredPath(path),
    ignoreInitial: false,
    // A link (to a sheet, a folder, anything) is reported as itself and never entered: the
    // intake then refuses it, and says why.
    followSymlinks: false,
    depth: MAX_DEPTH,
    usePolling: options.polling,
    interval: 1000,
    awaitWriteFinish: {
      stabilityThreshold: options.stableMs,
      pollInterval: Math.min(500, options.stableMs),
    },
  });
  watcher.on('add', take);
  watcher.on('change', take);
  watcher.on('error', (error) => {
    logger.error({ err: error }, 'inbox watcher error');
  });
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      resolve();
    }),
  );
  // File events can be lost (chokidar's awaitWriteFinish, a busy share): a sheet still in the
  // inbox a while later is looked for directly. One being taken already is skipped by the intake.
  let rescanning = false;
  const rescans = setInterval(
    () => {
      if (rescanning || abort.signal.aborted) return;
      rescanning = true;
      sheetsIn(options.inboxDir)
        .then((paths) => {
          for (const path of paths) take(path);
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'inbox rescan failed; the next one tries again');
        })
        .finally(() => {
          rescanning = false;
        });
    },
    Math.max(10_000, options.stableMs * 10),
  );
  rescans.unref();
  return {
    ready,
    close: async () => {
      abort.abort();
      clearInterval(rescans);
      await tidy.close();
      await watcher.close();
      await Promise.allSettled([...underway]);
    },
  };
}

/**
 * Every sheet in a folder and its subfolders (a schedule's scan). A linked sheet is listed, for
 * the intake to refuse it and say why; a linked folder is not entered.
 */
export async function sheetsIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (isIgnoredPath(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && isSheetCandidate(path))
        found.push(path);
    }
  };
  await walk(dir, 0);
  return found.sort();
}

/**
 * What to say of a link to a folder found in the inbox (the watcher does not enter it), or
 * undefined for anything else. A link to a file is said by the intake of the sheet naming it.
 */
async function linkedFolderText(inbox: string, path: string): Promise<string | undefined> {
  if (!(await lstatIfThere(path))?.isSymbolicLink()) return undefined;
  // Only to tell a folder from a file: nothing in it is looked at. A target that cannot be
  // looked at (a loop of links, no permission) is no folder to say anything of.
  const target = await statIfThere(path).catch(() => undefined);
  if (!target?.isDirectory()) return undefined;
  return `${relative(inbox, path)} is a symbolic link to a folder: the hot folder does not follow links, so nothing in it is taken. Put the folder itself in the inbox.`;
}
