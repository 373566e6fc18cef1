/** What every command that runs the importer does first: its settings, its logger. */
import { relative, resolve } from 'node:path';

import type { Logger } from 'pino';

import { createLogger } from '../logger.js';
import { type ColumnMapping, loadMapping, MappingError } from '../orders/columns.js';
import { ConfigError, loadSettings, type SettingFlags, type Settings } from '../settings/load.js';
import { forUser } from './errors.js';
import type { CommandIo } from './io.js';

/** The settings of a command: its flags, then the environment, then `--config`, then defaults. */
export function commandSettings(
  io: CommandIo,
  configFile: string | undefined,
  flags: SettingFlags = {},
): Promise<Settings> {
  const input = {
    flags,
    env: io.env,
    cwd: io.cwd,
    ...(configFile !== undefined && { configFile }),
  };
  return forUser(loadSettings(input), ConfigError);
}

/**
 * The logger of a command a person watches: on a terminal, unless LOG_LEVEL is set, only
 * warnings and errors, since the command's own lines say what goes on and JSON would bury them;
 * and not those the command has just said in plain words (an outage).
 */
export function commandLogger(io: CommandIo, settings: Settings): Logger {
  const quiet = (io.stderr as { isTTY?: boolean }).isTTY === true && io.env.LOG_LEVEL === undefined;
  return createLogger({
    level: quiet ? 'warn' : settings.logLevel,
    skipTold: quiet,
    destination: io.stderr,
  });
}

/** A path as the user would type it from where they are, when it is below there. */
export function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/**
 * `--mapping FILE`, read; without the flag, the connection's mapping (`connectionMapping`, an
 * absolute path) when it has one; else undefined.
 */
export function readMapping(
  file: string | undefined,
  cwd: string,
  connectionMapping?: string,
): Promise<ColumnMapping | undefined> {
  const chosen = file === undefined ? connectionMapping : resolve(cwd, file);
  if (chosen === undefined) return Promise.resolve(undefined);
  return forUser(loadMapping(chosen), MappingError);
}
