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
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination(2),
  );
}
