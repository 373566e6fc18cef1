import type { DestinationStream } from 'pino';

import { type AsyncDestination, asyncDestination } from '../logger.js';

/** Where a command writes and how it learns it should stop; tests pass their own. */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where a command reads what a person types (a password); none: nothing is read. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves at the first SIGINT/SIGTERM (or whatever the caller decides). */
  stopSignal: () => Promise<string>;
  /**
   * Where the log goes when it is not `stderr` itself: the process's stderr written in the
   * background when it is a pipe or a file (logger.ts). Absent: `stderr`, line by line.
   */
  log?: {
    destination(): DestinationStream;
    /** Resolves once every line logged so far is written; awaited before the process exits. */
    flush(): Promise<void>;
  };
}

export function processIo(): CommandIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    stopSignal: () =>
      new Promise((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
    // A person at a terminal sees few lines (setup.ts), each the moment it is said, between the
    // progress bars: written at once. A pipe or a file gets a line per event: in the background.
    ...(!process.stderr.isTTY && { log: backgroundLog(process.stderr.fd) }),
  };
}

/** The log on `fd`, opened when a command first asks for it (`--help` logs nothing). */
function backgroundLog(fd: number): NonNullable<CommandIo['log']> {
  let opened: AsyncDestination | undefined;
  return {
    destination: () => (opened ??= asyncDestination(fd)),
    flush: () => opened?.flush() ?? Promise.resolve(),
  };
}
