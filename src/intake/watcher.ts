/**
 * The hot folder: chokidar on the inbox and its subfolders (a folder holding a sheet and its
 * documents can be dropped whole). Every sheet, also one already there at start-up (chokidar's
 * awaitWriteFinish does not cover those), goes through the intake's own stability check.
 */
import { readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';

import { watch } from 'chokidar';
import type { Logger } from 'pino';

import { isIgnoredPath, isSheetCandidate, removeIfEmpty, unreadableFormatHint } from './files.js';
import type { Intake, IntakeResult } from './intake.js';

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
  const underway = new Set<Promise<void>>();
  const refused = new Set<string>();
  const tidy = new EmptyFolders(options.inboxDir, Math.max(5000, options.stableMs * 5), logger);
  const take = (path: string) => {
    if (abort.signal.aborted) return;
    if (!isSheetCandidate(path)) {
      const why = unreadableFormatHint(path);
      if (why !== undefined && !refused.has(path)) {
        refused.add(path);
        logger.warn(
          { sheet: path, reason: why },
          'not a sheet the importer reads; left in the inbox',
        );
        options.onRefused?.(path, why);
      }
      return;
    }
    const work = intake
      .take(path, abort.signal)
      .then((result) => {
        if (result.kind !== 'skipped') tidy.add(result.from);
        options.onResult?.(path, result);
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        logger.error({ sheet: path, err: error }, 'intake failed; the sheet stays in the inbox');
      })
      .finally(() => underway.delete(work));
    underway.add(work);
  };
  const watcher = watch(options.inboxDir, {
    ignored: (path) => path !== options.inboxDir && isIgnoredPath(path),
    ignoreInitial: false,
    depth: 10,
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
  return {
    ready,
    close: async () => {
      abort.abort();
      await tidy.close();
      await watcher.close();
      await Promise.allSettled([...underway]);
    },
  };
}

/**
 * The inbox's folders the intake emptied (a dropped folder, its `docs/`), removed once they
 * have stayed empty a while, then their parents likewise; never the inbox itself.
 */
class EmptyFolders {
  readonly #waiting = new Set<string>();
  readonly #timer: NodeJS.Timeout;
  #sweeping: Promise<void> | undefined;

  constructor(
    private readonly inbox: string,
    private readonly graceMs: number,
    private readonly logger: Logger,
  ) {
    this.#timer = setInterval(
      () => {
        this.#sweeping ??= this.#sweep()
          .catch((error: unknown) => {
            logger.warn({ err: error }, 'could not tidy the empty folders of the inbox');
          })
          .finally(() => {
            this.#sweeping = undefined;
          });
      },
      Math.min(graceMs, 5000),
    );
    this.#timer.unref();
  }

  add(dirs: readonly string[]): void {
    for (const dir of dirs) if (this.#inside(dir)) this.#waiting.add(dir);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  #inside(dir: string): boolean {
    const rel = relative(this.inbox, dir);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  }

  async #sweep(): Promise<void> {
    // Deepest first, so that a folder's emptied subfolders go before it is looked at.
    const dirs = [...this.#waiting].sort((a, b) => b.length - a.length);
    for (const dir of dirs) {
      const outcome = await removeIfEmpty(dir, this.graceMs, Date.now());
      if (outcome === 'wait') continue;
      this.#waiting.delete(dir);
      if (outcome === 'removed') {
        this.logger.info({ folder: dir }, 'empty folder removed from the inbox');
        this.add([dirname(dir)]);
      }
    }
  }
}

/** Every sheet in a folder and its subfolders (a schedule's scan). */
export async function sheetsIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (isIgnoredPath(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < 10) await walk(path, depth + 1);
      else if (entry.isFile() && isSheetCandidate(path)) found.push(path);
    }
  };
  await walk(dir, 0);
  return found.sort();
}
