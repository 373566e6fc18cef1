/**
 * Vitest's global setup of the tests that spawn the CLI: they run `dist/`, so it is built from
 * the sources of this run first (incrementally: a build of unchanged sources takes a moment).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { packageRoot } from '../../src/package-root.js';

export default function buildOnce(): void {
  const root = packageRoot();
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo'],
    { cwd: root, stdio: 'inherit' },
  );
}
