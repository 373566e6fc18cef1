/**
 * What `import` and `worker` share: settings → Redis, the API (or the embedded sandbox, said out
 * loud), the catalogue, the pipeline and its workers, and a close that undoes all of it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Logger } from 'pino';
import { Agent } from 'undici';

import { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Settings } from '../settings/load.js';
import { type ConnectionInfo, connectionOf } from '../connections/connection.js';
import { SandboxIdentityError, sandboxIdentity } from '../connections/sandbox-identity.js';
import { type Catalogue, CatalogueError, loadCatalogue } from '../orders/catalogue.js';
import { type Context, openContext } from '../context.js';
import { importStopped, resumeImport } from '../rows/stop-import.js';
import { startWorkers } from '../workers/start.js';
import { closeContext, forceStop } from '../workers/stop.js';
import { RedisUnavailableError, resolveRedis, type ResolvedRedis } from '../redis/resolve.js';
import { redactUrl } from '../redis/url.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { CliError } from './errors.js';
import type { CommandIo } from './io.js';
import { waitForApi } from './wait-for-api.js';

export interface Importer {
  ctx: Context;
  connection: ConnectionInfo;
  apiBaseUrl: string;
  catalogue: Catalogue;
  redisUrl: string;
  /** Whether the API answers and takes the token (for /healthz). */
  apiAnswers(): Promise<boolean>;
  close(options?: { graceMs?: number; force?: boolean }): Promise<void>;
}

export interface OpenImporterOptions {
  settings: Settings;
  logger: Logger;
  /** Where announcements go (stderr). */
  say: (line: string) => void;
  workers: boolean;
  /** `watch` and `worker`: an API still away after API_WAIT_S is waited for on, not fatal. */
  service?: boolean;
  /** Stops waiting for the API at start (a signal while starting up). */
  signal?: AbortSignal;
}

/**
 * `watch` and `worker`: the first stop signal is listened for from the start, so a Ctrl+C while
 * starting up stops gracefully once started, or at once while the API is waited for. `opened`
 * then opens the importer as a service (with workers; an API away at start is waited for on).
 */
export function serviceStart(io: Pick<CommandIo, 'stopSignal'>): {
  firstSignal: Promise<string>;
  opened(parts: Pick<OpenImporterOptions, 'settings' | 'logger' | 'say'>): Promise<Importer>;
} {
  const firstSignal = io.stopSignal();
  const starting = new AbortController();
  void firstSignal.then(() => {
    starting.abort();
  });
  return {
    firstSignal,
    opened: (parts) =>
      openImporter({ ...parts, workers: true, service: true, signal: starting.signal }),
  };
}

export async function openImporter(options: OpenImporterOptions): Promise<Importer> {
  const { settings, logger, say } = options;
  const undo: Array<() => Promise<unknown>> = [];
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      for (const step of [...undo].reverse()) await step();
    })();
    return closing;
  };
  try {
    const catalogue = await loadCatalogue(settings.productsFile).catch((error: unknown) => {
      if (error instanceof CatalogueError) throw new CliError(error.message, 1, { cause: error });
      throw error;
    });
    const redis = await resolveRedis({
      configured: settings.redisUrl,
      dataDir: settings.dataDir,
    }).catch((error: unknown) => {
      if (error instanceof RedisUnavailableError)
        throw new CliError(error.message, 1, { cause: error });
      throw error;
    });
    undo.push(() => redis.release());
    announceRedis(redis, say);

    const api = await connectApi(settings, say);
    undo.push(() => api.close());
    const dispatcher = new Agent({
      keepAliveTimeout: 30_000,
      connections: Math.max(16, settings.concurrency * 2),
    });
    undo.push(() => dispatcher.close());
    const client = new ApiClient({
      baseUrl: api.baseUrl,
      token: api.token,
      timeoutMs: settings.apiTimeoutMs,
      dispatcher,
    });
    await waitForApi((signal) => probeApi(client, signal), {
      baseUrl: api.baseUrl,
      waitS: settings.apiWaitS,
      waitOn: options.service === true,
      say,
      logger,
      ...(options.signal && { signal: options.signal }),
    });

    const ctx = await openContext({
      settings: {
        redisUrl: redis.url,
        prefix: settings.queuePrefix,
        concurrency: settings.concurrency,
        ...(settings.apiRateLimit !== undefined && { apiRateLimit: settings.apiRateLimit }),
        lockMs: settings.jobLockMs,
        rowAttempts: settings.rowAttempts,
        retryDelayMs: settings.retryDelayMs,
        reportsDir: settings.reportsDir,
        sheetsDir: join(settings.dataDir, 'sheets'),
        maxAttachmentBytes: Math.floor(settings.maxAttachmentMb * 1024 * 1024),
        // Any process may write a hot-folder sheet's report, so any may archive its work folder.
        archive: { workDir: settings.workDir, archiveDir: settings.archiveDir },
      },
      catalogue,
      api: client,
      connection: api.connection,
      logger,
      tell: say,
    });
    // An earlier import stopped on a refused token; the check above just took this one.
    const stopped = await importStopped(ctx);
    if (stopped !== undefined) {
      await resumeImport(ctx);
      say(`An earlier stop (${stopped}) is lifted: the API takes the token now.`);
    }
    let closeOptions: { graceMs?: number; force?: boolean } = {};
    undo.push(() => closeContext(ctx, closeOptions));
    if (options.workers) await startWorkers(ctx);
    return {
      ctx,
      connection: api.connection,
      apiBaseUrl: api.baseUrl,
      catalogue,
      redisUrl: redis.url,
      apiAnswers: async () => (await probeApi(client)) === undefined,
      close: async (how = {}) => {
        if (closing === undefined) closeOptions = how;
        else if (how.force) await forceStop(ctx); // a second signal while stopping
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function announceRedis(redis: ResolvedRedis, say: (line: string) => void): void {
  if (redis.source === 'private') {
    say(`Redis: a private redis-server at ${redis.url} (data under DATA_DIR/redis, AOF on).`);
  } else {
    say(
      `Redis: ${redactUrl(redis.url)}${redis.source === 'default' ? ' (the local default; set REDIS_URL to use another)' : ''}.`,
    );
  }
}

interface ConnectedApi {
  baseUrl: string;
  token: string;
  connection: ConnectionInfo;
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

/** The API of the settings, or the embedded sandbox when none is set (announced loudly). */
async function connectApi(settings: Settings, say: (line: string) => void): Promise<ConnectedApi> {
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
  say('');
  say(
    '*** No API_BASE_URL is set: orders go to the EMBEDDED SANDBOX, not to the inspection company. ***',
  );
  say(
    `*** Sandbox at ${sandbox.url} (its data under DATA_DIR/sandbox). Set API_BASE_URL and API_TOKEN for real orders. ***`,
  );
  say('');
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
