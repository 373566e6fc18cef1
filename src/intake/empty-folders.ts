import { dirname, isAbsolute, relative } from 'node:path';

import type { Logger } from 'pino';

import { removeIfEmpty, statIfThere } from './files.js';
import { EMPTY_FOLDERS_SWEEP_MS } from '../policy.js';

/**
 * The inbox's folders the intake emptied (a dropped folder, its `docs/`), removed once they
 * have stayed empty a while, then their parents likewise; never the inbox itself, nor a folder
 * it is told to keep (a connection's subfolder).
 */
export class EmptyFolders {
  readonly #waiting = new Set<string>();
  /** A parent's modification time from before we removed its subfolder. */
  readonly #changedAt = new Map<string, number>();
  readonly #timer: NodeJS.Timeout;
  #sweeping: Promise<void> | undefined;

  constructor(
    private readonly inbox: string,
    private readonly graceMs: number,
    private readonly logger: Logger,
    private readonly keep: ReadonlySet<string> = new Set(),
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
      Math.min(graceMs, EMPTY_FOLDERS_SWEEP_MS),
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
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !this.keep.has(dir);
  }

  async #sweep(): Promise<void> {
    // Deepest first, so that a folder's emptied subfolders go before it is looked at.
    const dirs = [...this.#waiting].sort((a, b) => b.length - a.length);
    const seen = new Set(dirs);
    for (let i = 0; i < dirs.length; i++) {
      const dir = dirs[i] ?? '';
      const parent = dirname(dir);
      const parentBefore = this.#inside(parent) ? await statIfThere(parent) : undefined;
      const outcome = await removeIfEmpty(dir, this.graceMs, Date.now(), this.#changedAt.get(dir));
      if (outcome === 'wait') continue;
      this.#waiting.delete(dir);
      this.#changedAt.delete(dir);
      if (outcome === 'removed') {
        this.logger.info({ folder: dir }, 'empty folder removed from the inbox');
        if (parentBefore === undefined) continue;
        // Our removal just touched the parent: its age is what it was before.
        this.#changedAt.set(parent, this.#changedAt.get(parent) ?? parentBefore.mtimeMs);
        this.#waiting.add(parent);
        if (!seen.has(parent)) {
          seen.add(parent);
          dirs.push(parent); // in this same sweep: a dropped folder goes at once, not level by level
        }
      }
    }
  }
}
