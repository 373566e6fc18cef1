/**
 * Counts how often a test's sheet files are opened for reading, and how many workbook reader
 * threads are started, while the test runs its stages in this process. The file system's openers
 * and the worker thread's constructor are wrapped where every module finds them (Node's built-in
 * modules, their named exports synced), and restored by `stop`; a read stream opens its file
 * through `fs.open`, so it counts once. A workbook's zip is read inside
 * its worker thread, which this process cannot see: its opens are counted as threads started.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import workerThreads from 'node:worker_threads';

export interface SheetReads {
  /** Opens for reading of a path that `counts` accepts, by path. */
  readonly opens: Map<string, number>;
  /** Reader threads started (each reads a workbook's zip once). */
  workers: number;
  /** The opens of paths ending in `name`. */
  of(name: string): number;
  stop(): void;
}

type Opened = string | Buffer | URL | number;

/** Starts counting opens of paths that `counts` accepts. */
export function countSheetReads(counts: (path: string) => boolean): SheetReads {
  const opens = new Map<string, number>();
  const seen = (path: Opened, flags?: unknown) => {
    if (typeof path === 'number') return;
    const plain = resolve(path instanceof URL ? path.pathname : path.toString());
    const writing = typeof flags === 'string' && /[wa+]/.test(flags);
    if (!writing && counts(plain)) opens.set(plain, (opens.get(plain) ?? 0) + 1);
  };
  const originals = {
    open: fs.open,
    openSync: fs.openSync,
    promisesOpen: fs.promises.open,
    Worker: workerThreads.Worker,
  };
  const reads: SheetReads = {
    opens,
    workers: 0,
    of: (name) => [...opens].reduce((n, [path, k]) => (path.endsWith(name) ? n + k : n), 0),
    stop: () => {
      Object.assign(fs, {
        open: originals.open,
        openSync: originals.openSync,
      });
      fs.promises.open = originals.promisesOpen;
      Object.assign(workerThreads, { Worker: originals.Worker });
      syncBuiltinESMExports();
    },
  };
  Object.assign(fs, {
    open: (path: Opened, ...rest: unknown[]) => {
      seen(path, typeof rest[0] === 'string' ? rest[0] : undefined);
      return (originals.open as (...args: unknown[]) => unknown)(path, ...rest);
    },
    openSync: (path: Opened, flags?: unknown, mode?: unknown) => {
      seen(path, flags);
      return originals.openSync(path as fs.PathLike, flags as fs.OpenMode, mode as fs.Mode);
    },
  });
  fs.promises.open = (path, flags, mode) => {
    seen(path, flags);
    return originals.promisesOpen(path, flags, mode);
  };
  class CountedWorker extends originals.Worker {
    constructor(...args: ConstructorParameters<typeof workerThreads.Worker>) {
      super(...args);
      reads.workers += 1;
    }
  }
  Object.assign(workerThreads, { Worker: CountedWorker });
  syncBuiltinESMExports();
  return reads;
}
