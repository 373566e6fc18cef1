/**
 * Vitest's global setup of the tests that spawn the CLI: they run `dist/`, so it is built from
 * the sources of this run first, unless the last build is newer than every source it is made
 * from (`npm test`'s pretest and `.ci/run` have usually just built it: compiling again would
 * cost a loaded machine many seconds for nothing).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { packageRoot } from '../../src/package-root.js';

/** Where the incremental build keeps its state; `npm run build` writes it too. */
export const BUILD_INFO = 'dist/.tsbuildinfo';
/** What tsconfig.build.json compiles, and the files that decide how. */
const INPUTS = ['src', 'jobs', 'sandbox', 'bench', 'scripts'];
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

export default function buildOnce(): void {
  const root = packageRoot();
  if (distIsFresh(root)) return;
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', BUILD_INFO],
    { cwd: root, stdio: 'inherit' },
  );
  // tsc leaves its state file alone when nothing needed compiling: mark the build as checked.
  const now = new Date();
  utimesSync(join(root, BUILD_INFO), now, now);
}

/** Whether the last build is newer than every source and setting it is made from. */
export function distIsFresh(root: string): boolean {
  const built = mtimeOf(join(root, BUILD_INFO));
  if (built === undefined) return false;
  const newest = Math.max(
    ...SETTINGS.map((name) => mtimeOf(join(root, name)) ?? 0),
    ...INPUTS.map((dir) => newestIn(join(root, dir))),
  );
  return newest < built;
}

function newestIn(dir: string): number {
  let newest = mtimeOf(dir) ?? 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestIn(path) : (mtimeOf(path) ?? 0);
    newest = Math.max(newest, mtime);
  }
  return newest;
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
