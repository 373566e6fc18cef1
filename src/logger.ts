import {
  type DestinationStream,
  type Logger,
  type LevelWithSilent,
  pino,
  stdSerializers,
} from 'pino';

/**
 * Paths pino censors wherever they appear: the API token and a password (Redis's, in a client's
 * options) must never reach a log line.
 */
export const REDACTED_PATHS = [
  'token',
  'apiToken',
  '*.token',
  '*.apiToken',
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'password',
  '*.password',
  'sentinelPassword',
  '*.sentinelPassword',
];

/**
 * An error as a log line holds it: pino's own, less the arguments of the Redis command that
 * failed, which ioredis attaches to its errors (`command.args`): those of a refused AUTH are the
 * user and the password, those of other commands may be a row's personal data.
 */
export function loggedError(error: unknown): unknown {
  const logged: unknown = stdSerializers.err(error as Error);
  if (typeof logged !== 'object' || logged === null || !('command' in logged)) return logged;
  const { command } = logged;
  if (typeof command !== 'object' || command === null || !('args' in command)) return logged;
  return Object.assign(logged, { command: { ...command, args: '[redacted]' } });
}

export interface LoggerOptions {
  /** @defaultValue `info` */
  level?: LevelWithSilent;
  /** Where lines go. @defaultValue standard error, so standard output stays for results */
  destination?: DestinationStream;
  /**
   * Leave out records marked `told: true`: on a terminal, what a command has just said in plain
   * words (an outage starting or ending) is not said again as JSON. @defaultValue false
   */
  skipTold?: boolean;
}

/** A destination whose lines are written in the background, and a way to wait for them. */
export interface AsyncDestination extends DestinationStream {
  /** Resolves once every line given so far has been written. */
  flush(): Promise<void>;
}

/**
 * Lines to the file descriptor `fd`, written asynchronously: a line is queued and the process goes
 * on, lines that come while a write is in flight leave together in the next one. Writing each
 * line synchronously to a pipe (a service's or CI's stderr) cost an import more CPU than its HTTP
 * client did. Whatever is still queued when the process exits (process.exit, an uncaught error)
 * is written synchronously then (pino registers that); `flush` is for a clean end, which waits.
 */
export function asyncDestination(fd: number): AsyncDestination {
  const boom = pino.destination({ dest: fd, sync: false });
  // Bytes given and not yet written: the writer says how much each write took, nothing more.
  let pending = 0;
  let broken = false;
  let drained: Array<() => void> = [];
  const release = () => {
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };
  boom.on('write', (n: number) => {
    pending -= n;
    if (pending <= 0) release();
  });
  // A reader gone (EPIPE) or a failed write: nothing more will be written, nothing to wait for.
  // pino's own listener stops the writer on EPIPE; this one keeps a clean end from hanging.
  boom.on('error', () => {
    broken = true;
    pending = 0;
    release();
  });
  return {
    write(line: string) {
      if (broken) return;
      pending += Buffer.byteLength(line);
      boom.write(line);
    },
    flush: () =>
      pending <= 0 ? Promise.resolve() : new Promise<void>((resolve) => drained.push(resolve)),
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: loggedError },
      ...(options.skipTold && {
        hooks: {
          logMethod(args, method) {
            const first: unknown = args[0];
            if (
              typeof first === 'object' &&
              first !== null &&
              'told' in first &&
              first.told === true
            )
              return;
            method.apply(this, args);
          },
        },
      }),
    },
    options.destination ?? pino.destination(2),
  );
}
