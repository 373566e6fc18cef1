/** Where a command writes and how it learns it should stop; tests pass their own. */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves at the first SIGINT/SIGTERM (or whatever the caller decides). */
  stopSignal: () => Promise<string>;
}

export function processIo(): CommandIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
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
  };
}
