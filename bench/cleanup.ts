/**
 * What the benchmark must undo however it ends: the child processes it started, the Redis keys
 * and temporary folders it made. Each is registered as it is made and undone last-made first, on
 * a normal end, on a failure, and on Ctrl-C or SIGTERM (which would otherwise end the process
 * before any `finally` ran).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Undo = () => Promise<void>;

const undos: Undo[] = [];
let undoing: Promise<void> | undefined;

/** Registers `undo`; returns what runs it at once (and only once) and forgets it. */
export function onCleanup(undo: Undo): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once: Undo = () => (done ??= undo());
  undos.push(once);
  return async () => {
    const at = undos.indexOf(once);
    if (at >= 0) undos.splice(at, 1);
    await once();
  };
}

/** Runs every undo still registered, last first; one that fails is said and does not stop the rest. */
export function cleanUp(): Promise<void> {
  undoing ??= (async () => {
    while (undos.length > 0) {
      const undo = undos.pop() as Undo;
      try {
        await undo();
      } catch (error) {
        process.stderr.write(`cleanup: ${String(error)}\n`);
      }
    }
    undoing = undefined;
  })();
  return undoing;
}

/** Cleans up, then ends the process, on Ctrl-C or SIGTERM; a second signal ends it at once. */
export function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(
        `\n${signal}: stopping the benchmark's processes and removing its data…\n`,
      );
      process.once(signal, () => process.exit(130));
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/** A temporary folder, removed on cleanup. */
export async function tempFolder(
  name: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `${name}-`));
  const remove = onCleanup(() => rm(path, { recursive: true, force: true }));
  return { path, remove };
}
