/** What every command that runs the importer does first: its settings, its logger. */
import { dirname, relative, resolve } from 'node:path';

import type { DestinationStream, Logger } from 'pino';

import { wordsFor, type Words } from '../language/words.js';
import { createLogger } from '../logger.js';
import {
  checkMappingSources,
  type MappingSources,
  resolveMapping,
} from '../orders/mapping-files.js';
import type { Mapping } from '../orders/mapping.js';
import { loadSettings, type SettingFlags, type Settings } from '../settings/load.js';
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
  return loadSettings(input);
}

/** The words of the person at the command: its lines are in the process's language. */
export function commandWords(settings: Pick<Settings, 'language'>): Words {
  return wordsFor(settings.language);
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
    destination: logDestination(io),
  });
}

/** Where a command's log goes: the process's stderr, in the background when it is not a terminal. */
export function logDestination(io: CommandIo): DestinationStream {
  return io.log?.destination() ?? io.stderr;
}

/** A path as the user would type it from where they are, when it is below there. */
export function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/**
 * The mapping files every sheet of a command may use: `--mapping FILE` (relative to where the
 * user is), the connection's `mapping` (`connectionMapping`, absolute) and the config file's
 * `mapping`; each checked now, so that a mistake stops the command before anything starts (exit 1).
 */
export async function mappingSources(
  flag: string | undefined,
  settings: Settings,
  cwd: string,
  connectionMapping?: string,
): Promise<MappingSources> {
  const sources: MappingSources = {
    ...(flag !== undefined && { flag: resolve(cwd, flag) }),
    ...(connectionMapping !== undefined && { connection: connectionMapping }),
    ...(settings.mappingFile !== undefined && { config: settings.mappingFile }),
  };
  await checkMappingSources(sources);
  return sources;
}

/** The mapping of the sheet at `path` (a `mapping.json` beside it, or `sources`); undefined: none. */
export function mappingOfSheet(
  sources: MappingSources,
  path: string,
): Promise<Mapping | undefined> {
  return resolveMapping(sources, dirname(path));
}

/** The same for a sheet to import: a mapping that cannot be used stops the command (exit 1). */
export function mappingToImport(
  sources: MappingSources,
  path: string,
): Promise<Mapping | undefined> {
  return mappingOfSheet(sources, path);
}
