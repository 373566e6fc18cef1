import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { main } from '../../src/cli/main.js';
import { packageRoot } from '../../src/package-root.js';
import { terminal } from './terminal.js';

export const ROOT = packageRoot();
/** The built CLI, which the e2e project builds first (test/helpers/build.ts). */
export const BIN = join(ROOT, 'bin', 'order-importer.js');

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI child process whose output is collected as it comes. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly finished: Promise<CliExit>;

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
    return waitForOutput(this, 'stdout', pattern, timeoutMs, () => this.child.exitCode !== null);
  }

  /** The same on stderr (where the CLI's human messages go). */
  waitForStderr(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return waitForOutput(this, 'stderr', pattern, timeoutMs, () => this.child.exitCode !== null);
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

/**
 * The CLI run in this process, as `main` runs it for bin/, with its IO recorded: the environment
 * is only `env` (and LOG_LEVEL=warn), the working folder the project's, and a stop signal is
 * given by `stop`.
 */
export class InProcessCli {
  readonly #stdout: ReturnType<typeof terminal>;
  readonly #stderr: ReturnType<typeof terminal>;
  readonly #stops: Array<(signal: string) => void> = [];
  readonly finished: Promise<CliExit>;
  #ended = false;

  /** `tty`: its stdout and stderr say they are a terminal (as a person's are). */
  constructor(
    args: readonly string[],
    env: NodeJS.ProcessEnv = {},
    cwd = ROOT,
    options: { tty?: boolean; stdin?: string } = {},
  ) {
    this.#stdout = terminal(options.tty ?? false);
    this.#stderr = terminal(options.tty ?? false);
    const io = {
      stdout: this.#stdout.stream,
      stderr: this.#stderr.stream,
      env: { LOG_LEVEL: 'warn', ...env },
      cwd,
      stopSignal: () => new Promise<string>((resolve) => this.#stops.push(resolve)),
      // What was piped in (a password): a pipe, never a terminal.
      ...(options.stdin !== undefined && { stdin: Readable.from([options.stdin]) }),
    };
    this.finished = main(['node', 'order-importer', ...args], io).then((code) => {
      this.#ended = true;
      return { code, signal: null, stdout: this.stdout, stderr: this.stderr };
    });
  }

  get stdout(): string {
    return this.#stdout.written();
  }

  get stderr(): string {
    return this.#stderr.written();
  }

  /** What SIGINT or SIGTERM does to the process: every stop signal listened for resolves. */
  stop(signal = 'SIGTERM'): void {
    for (const resolve of this.#stops.splice(0)) resolve(signal);
  }

  /** Resolves with the first match of `pattern` in stdout; fails if the command ends first. */
  waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return waitForOutput(this, 'stdout', pattern, timeoutMs, () => this.#ended);
  }

  waitForStderr(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return waitForOutput(this, 'stderr', pattern, timeoutMs, () => this.#ended);
  }
}

/** Runs a command line in process to its end. */
export function runInProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliExit> {
  return new InProcessCli(args, env).finished;
}

/** The first match of `pattern` in what a command wrote; fails once it has ended without one. */
async function waitForOutput(
  output: { stdout: string; stderr: string },
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
  timeoutMs: number,
  ended: () => boolean,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output[stream]);
    if (match) return match;
    if (ended() || Date.now() > deadline) {
      throw new Error(
        `no ${pattern} on ${stream}.\nstdout: ${output.stdout}\nstderr: ${output.stderr}`,
      );
    }
    await sleep(50);
  }
}

/**
 * The environment of a command run against a test's Redis (under its own prefix), an API with
 * the sandbox's token, and a data folder, with quick retries; `extra` over it.
 */
export function importerEnv(
  where: { redis: { url: string; prefix: string }; apiUrl: string; dataDir: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    REDIS_URL: where.redis.url,
    QUEUE_PREFIX: `{${where.redis.prefix}}`,
    API_BASE_URL: where.apiUrl,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: where.dataDir,
    RETRY_DELAY_MS: '50',
    ...extra,
  };
}
