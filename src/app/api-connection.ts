/**
 * The API a process sends to: the one the settings name (with its token, from API_TOKEN or
 * API_TOKEN_FILE), or the embedded sandbox when none is set — said out loud, so no one mistakes
 * rehearsal orders for real ones.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { ConfiguredConnection } from '../settings/connections.js';
import type { Settings } from '../settings/load.js';
import { type ConnectionInfo, connectionOf } from '../connections/connection.js';
import { sandboxIdentity } from '../connections/sandbox-identity.js';
import type { RunningSandbox } from '../../sandbox/server.js';
import { isKnown, UserError } from '../errors.js';
import { wordsFor } from '../language/words.js';
import { writingIn } from '../machine-fault.js';

export interface ConnectedApi {
  baseUrl: string;
  token: string;
  connection: ConnectionInfo;
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

/**
 * The API of one of the config file's connections; else the API of the settings, or the embedded
 * sandbox when none is set (announced loudly).
 */
export async function connectApi(
  settings: Settings,
  announce: (line: string) => void,
  configured?: ConfiguredConnection,
): Promise<ConnectedApi> {
  const named = await namedApi(settings, configured);
  if (named !== undefined) return { ...named, close: () => Promise.resolve() };
  // Loaded only when it runs: the sandbox (Fastify, SQLite) is no part of an import to a real API.
  const { startSandbox } = await import('../../sandbox/server.js');
  const dataDir = join(settings.dataDir, 'sandbox');
  // A full disk there is said by SQLite with no path: marked with its database's, to be named.
  const sandbox = await writingIn(join(dataDir, 'sandbox.sqlite'), () =>
    startSandbox({
      port: 0,
      dataDir,
      // On by default, so that status sync can be rehearsed on the embedded defaults.
      planning: settings.embeddedSandboxPlanningS,
    }),
  );
  const token = sandbox.tokens[0]?.token ?? '';
  let identity: string;
  try {
    identity = await sandboxIdentity(dataDir);
  } catch (error) {
    await sandbox.close();
    if (isKnown(error, 'sandbox.identity-unreadable'))
      throw new UserError(error.key, error.message, {
        cause: error,
        ...(error.values !== undefined && { values: error.values }),
        ...(error.variant !== undefined && { variant: error.variant }),
      });
    throw error;
  }
  const connection = connectionOf(
    { apiBaseUrl: sandbox.url, token, name: 'sandbox', sandbox: true },
    identity,
  );
  const words = wordsFor(settings.language);
  announce('');
  announce(words.t('cli.sandbox.banner'));
  announce(words.t('cli.sandbox.where', { url: sandbox.url }));
  announce('');
  return { baseUrl: sandbox.url, token, connection, sandbox, close: () => sandbox.close() };
}

/**
 * The API of one of the config file's connections, else of API_BASE_URL, with its token read
 * (a token that cannot be read is a UserError); undefined: neither, the embedded sandbox.
 */
export async function namedApi(
  settings: Settings,
  configured?: ConfiguredConnection,
): Promise<Omit<ConnectedApi, 'close' | 'sandbox'> | undefined> {
  if (configured !== undefined) {
    const token = await readTokenFile(configured.tokenFile, configured.name);
    const baseUrl = configured.apiBaseUrl;
    const connection = connectionOf({
      apiBaseUrl: baseUrl,
      token,
      name: configured.name,
      sandbox: false,
      ...(configured.language !== undefined && { language: configured.language }),
    });
    return { baseUrl, token, connection };
  }
  if (settings.apiBaseUrl === undefined) return undefined;
  const token = await readToken(settings);
  const baseUrl = settings.apiBaseUrl;
  const connection = connectionOf({ apiBaseUrl: baseUrl, token, name: 'default', sandbox: false });
  return { baseUrl, token, connection };
}

export async function readToken(settings: Settings): Promise<string> {
  if (settings.apiToken !== undefined)
    return bareToken(settings.apiToken, 'API_TOKEN', {
      source: 'variable',
      file: '',
      connection: '',
    });
  if (settings.apiTokenFile !== undefined) return readTokenFile(settings.apiTokenFile);
  throw new UserError(
    'api.token-missing',
    'API_BASE_URL is set but no token is: set API_TOKEN or API_TOKEN_FILE.',
    { values: {} },
  );
}

/** The token a file holds: API_TOKEN_FILE's, or the file of the connection named. */
async function readTokenFile(file: string, connection?: string): Promise<string> {
  const named =
    connection === undefined
      ? `API_TOKEN_FILE ${file}`
      : `The token file of connection "${connection}" (${file})`;
  const values = { file, connection: connection ?? 'none' };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as Error).message;
    throw new UserError('api.token-unreadable', `${named} cannot be read: ${reason}.`, {
      cause: error,
      values: { ...values, reason },
    });
  }
  const token = bareToken(text, named, {
    source: connection === undefined ? 'file' : 'connection',
    file,
    connection: connection ?? '',
  });
  if (token === '') throw new UserError('api.token-empty', `${named} is empty.`, { values });
  return token;
}

/**
 * The token itself: copied with its header's `Bearer ` (which an API may accept twice over), it
 * would be another connection, with a ledger of its own, and import every row again.
 */
function bareToken(
  text: string,
  named: string,
  of: { source: 'variable' | 'file' | 'connection'; file: string; connection: string },
): string {
  const token = text.trim().replace(/^bearer\s+/i, '');
  const unfit = headerUnfit(token);
  if (unfit !== undefined)
    throw new UserError(
      'api.token-unfit',
      `${named} holds ${unfit.said} inside the token, which no request can send: keep the token alone on one line (a line break at its end is fine).`,
      { values: { ...of, character: unfit.code } },
    );
  return token;
}

/**
 * What in a token an HTTP header cannot carry (a line break, another control character), said
 * for a person; undefined when nothing. Sent, it would fail every request as if the API were
 * away, and the process would wait for an answer that cannot come.
 */
function headerUnfit(token: string): { said: string; code: string } | undefined {
  // Control characters and anything beyond Latin-1 (a header's bytes); a tab is allowed.
  // eslint-disable-next-line no-control-regex -- finding controls is the point
  const found = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/u.exec(token)?.[0];
  if (found === undefined) return undefined;
  if (found === '\r' || found === '\n') return { said: 'a line break', code: 'line_break' };
  const code = (found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return { said: `a character a request header cannot carry (U+${code})`, code: `U+${code}` };
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
