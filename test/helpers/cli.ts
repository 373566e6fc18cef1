import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../../src/package-root.js';

export const ROOT = packageRoot();
export const BIN = join(ROOT, 'bin', 'order-importer.js');

/** End-to-end tests run the built CLI, as users do; `npm test` builds first. */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: run `npm run build` (npm test does it) before the e2e tests',
    );
  }
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI child process whose output is collected as it comes. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly finished: Promise<Finished>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.finished = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** Resolves with the first match of `pattern` in stdout; fails if the process ends first. */
  waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return this.#waitIn('stdout', pattern, timeoutMs);
  }

  /** The same on stderr (where the CLI's human messages go). */
  waitForStderr(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return this.#waitIn('stderr', pattern, timeoutMs);
  }

  async #waitIn(
    stream: 'stdout' | 'stderr',
    pattern: RegExp,
    timeoutMs: number,
  ): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this[stream]);
      if (match) return match;
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `no ${pattern} on ${stream}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Signals the whole process group (npx runs the CLI as a grandchild). */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) process.kill(-this.child.pid, signal);
  }
}

export function runCli(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): CliProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    detached: true,
  });
  return new CliProcess(child);
}

export function orderImporter(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  return runCli(process.execPath, [BIN, ...args], env);
}
