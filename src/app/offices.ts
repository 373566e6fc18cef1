/**
 * The offices of a configuration (docs/design.md "One installation, one namespace"): its
 * connections by id and name, computed from the settings as the importers compute them — each
 * token read, a token that cannot be read said as every command says it — without opening any
 * API, Redis or sandbox. What the dashboard alone shows is theirs only.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { type ConnectionInfo, connectionOf } from '../connections/connection.js';
import { sandboxIdentity } from '../connections/sandbox-identity.js';
import { isKnown, UserError } from '../errors.js';
import type { Settings } from '../settings/load.js';
import { DEMO_TOKEN } from '../../sandbox/tokens.js';
import { namedApi } from './api-connection.js';

export async function configuredOffices(settings: Settings): Promise<ConnectionInfo[]> {
  if (settings.connections.length > 0) {
    return Promise.all(
      settings.connections.map(async (configured) => {
        const named = await namedApi(settings, configured);
        if (named === undefined) throw new Error(`connection ${configured.name} has no API`);
        return named.connection;
      }),
    );
  }
  const named = await namedApi(settings);
  return [named === undefined ? await embeddedSandbox(settings) : named.connection];
}

/**
 * The embedded sandbox's connection, as `watch` and `import` of this data folder make it: its
 * identity is its folder's (sandbox-identity.ts), its token the sandbox's demo token. Its URL
 * (a new port at each start) is not known here and is no part of its id.
 */
async function embeddedSandbox(settings: Settings): Promise<ConnectionInfo> {
  const dir = join(settings.dataDir, 'sandbox');
  let identity: string;
  try {
    // Made as a sandbox starting here would make it: an importer started later finds the same.
    await mkdir(dir, { recursive: true });
    identity = await sandboxIdentity(dir);
  } catch (error) {
    if (isKnown(error, 'sandbox.identity-unreadable'))
      throw new UserError(error.key, error.message, {
        cause: error,
        ...(error.values !== undefined && { values: error.values }),
        ...(error.variant !== undefined && { variant: error.variant }),
      });
    throw error;
  }
  return connectionOf(
    { apiBaseUrl: 'http://localhost', token: DEMO_TOKEN.token, name: 'sandbox', sandbox: true },
    identity,
  );
}
