/**
 * The API a process sends to: the one the settings name (with its token, from API_TOKEN or
 * API_TOKEN_FILE), or the embedded sandbox when none is set — said out loud, so no one mistakes
 * rehearsal orders for real ones.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Settings } from '../settings/load.js';
import { type ConnectionInfo, connectionOf } from '../connections/connection.js';
import { SandboxIdentityError, sandboxIdentity } from '../connections/sandbox-identity.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { CliError } from './errors.js';

export interface ConnectedApi {
  baseUrl: string;
  token: string;
  connection: ConnectionInfo;
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

/** The API of the settings, or the embedded sandbox when none is set (announced loudly). */
export async function connectApi(
  settings: Settings,
  announce: (line: string) => void,
): Promise<ConnectedApi> {
  if (settings.apiBaseUrl !== undefined) {
    const token = await readToken(settings);
    const baseUrl = settings.apiBaseUrl;
    const connection = connectionOf({
      apiBaseUrl: baseUrl,
      token,
      name: 'default',
      sandbox: false,
    });
    return { baseUrl, token, connection, close: () => Promise.resolve() };
  }
  const sandbox = await startSandbox({ port: 0, dataDir: join(settings.dataDir, 'sandbox') });
  const token = sandbox.tokens[0]?.token ?? '';
  let identity: string;
  try {
    identity = await sandboxIdentity(join(settings.dataDir, 'sandbox'));
  } catch (error) {
    await sandbox.close();
    if (error instanceof SandboxIdentityError)
      throw new CliError(error.message, 1, { cause: error });
    throw error;
  }
  const connection = connectionOf(
    { apiBaseUrl: sandbox.url, token, name: 'sandbox', sandbox: true },
    identity,
  );
  announce('');
  announce(
    '*** No API_BASE_URL is set: orders go to the EMBEDDED SANDBOX, not to the inspection company. ***',
  );
  announce(
    `*** Sandbox at ${sandbox.url} (its data under DATA_DIR/sandbox). Set API_BASE_URL and API_TOKEN for real orders. ***`,
  );
  announce('');
  return { baseUrl: sandbox.url, token, connection, sandbox, close: () => sandbox.close() };
}

export async function readToken(settings: Settings): Promise<string> {
  if (settings.apiToken !== undefined) return bareToken(settings.apiToken);
  if (settings.apiTokenFile !== undefined) {
    let text: string;
    try {
      text = await readFile(settings.apiTokenFile, 'utf8');
    } catch (error) {
      throw new CliError(
        `API_TOKEN_FILE ${settings.apiTokenFile} cannot be read: ${(error as Error).message}.`,
        1,
        {
          cause: error,
        },
      );
    }
    const token = bareToken(text);
    if (token === '') throw new CliError(`API_TOKEN_FILE ${settings.apiTokenFile} is empty.`);
    return token;
  }
  throw new CliError('API_BASE_URL is set but no token is: set API_TOKEN or API_TOKEN_FILE.');
}

/**
 * The token itself: copied with its header's `Bearer ` (which an API may accept twice over), it
 * would be another connection, with a ledger of its own, and import every row again.
 */
function bareToken(text: string): string {
  return text.trim().replace(/^bearer\s+/i, '');
}

/** undefined when the API answers and takes the token (a 404 for order 0), else why not. */
export async function probeApi(
  client: ApiClient,
  signal?: AbortSignal,
): Promise<ApiError | undefined> {
  try {
    await client.getOrder(0, signal);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error.kind === 'permanent' ? undefined : error;
  }
}
