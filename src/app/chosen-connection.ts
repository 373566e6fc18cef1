/**
 * Which of the config file's connections a command uses. A module of its own, apart from
 * importers.ts: `validate` needs only this, not the importer with its queues, Redis and sandbox
 * (loading those is tens of MB of a process that validates a million rows).
 */
import type { ConfiguredConnection } from '../settings/connections.js';
import type { Settings } from '../settings/load.js';
import { UserError } from '../errors.js';

/**
 * Which of the config file's connections `import` or `validate` uses: the one `--connection`
 * names, or the only one there is; undefined without `connections` (API_BASE_URL's).
 */
export function chosenConnection(
  settings: Settings,
  name: string | undefined,
): ConfiguredConnection | undefined {
  const { connections } = settings;
  const names = connections.map((c) => c.name).join(', ');
  if (name === undefined) {
    if (connections.length > 1)
      throw new UserError(
        'connection.not-chosen',
        `--connection NAME is needed: the config file has several connections (${names}).`,
        { values: { names } },
      );
    return connections[0];
  }
  if (connections.length === 0)
    throw new UserError(
      'connection.none-configured',
      `--connection ${name}: there are no "connections" in ${settings.configFile ?? 'a config file (give one with --config FILE)'}.`,
      { values: { name, file: settings.configFile ?? 'none' } },
    );
  const chosen = connections.find((c) => c.name === name);
  if (chosen === undefined)
    throw new UserError(
      'connection.unknown',
      `--connection ${name} is not one of the config file's connections: ${names}.`,
      { values: { name, names } },
    );
  return chosen;
}
