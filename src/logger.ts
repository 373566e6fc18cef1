import { type DestinationStream, type Logger, type LevelWithSilent, pino } from 'pino';

/** Paths pino censors wherever they appear: the API token must never reach a log line. */
export const REDACTED_PATHS = [
  'token',
  'apiToken',
  '*.token',
  '*.apiToken',
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
];

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

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
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
