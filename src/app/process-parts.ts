/**
 * The parts a process opens before its context, each failing with a plain one-line error: the
 * catalogue, Redis (announced), and the API (a client that has been answered, or waited for).
 */
import { join } from 'node:path';

import { Agent } from 'undici';

import { ApiClient, type RequestSeen } from '../api/client.js';
import type { Settings } from '../settings/load.js';
import type { Context, ContextSettings } from '../context.js';
import { type Catalogue, loadCatalogue } from '../orders/catalogue.js';
import { type Installation, installationOf } from '../store/installation.js';
import { announceRedis, resolveRedis, type ResolvedRedis } from '../redis/resolve.js';
import { type ConnectedApi, connectApi, probeApi } from './api-connection.js';
import { waitForApi } from './wait-for-api.js';
import { API_KEEP_ALIVE_MS } from '../policy.js';

/** The catalogue of PRODUCTS_FILE; one that cannot be used is a UserError already. */
export async function catalogueOf(settings: Settings): Promise<Catalogue> {
  return loadCatalogue(settings.productsFile);
}

/** The data folder's marker (written the first time it is used), read once per process. */
export async function installationOfSettings(settings: Settings): Promise<Installation> {
  // A marker that cannot be read or written is a UserError already: a person must look.
  return installationOf(settings.dataDir);
}

/**
 * The Redis of the settings (or a private one), said in one line; and, once, what a restart of
 * it would cost when it keeps nothing on disk.
 */
export async function redisOf(
  settings: Settings,
  announce: (line: string) => void,
  logger?: Parameters<typeof announceRedis>[2],
): Promise<ResolvedRedis> {
  // None that answers, and none that may be started: a UserError already.
  const redis = await resolveRedis(redisSettings(settings));
  await announceRedis(redis, announce, logger, settings.language);
  return redis;
}

/** Where the settings say Redis is: REDIS_URL (if set), its CA file, the data folder. */
export function redisSettings(
  settings: Pick<Settings, 'redisUrl' | 'redisTlsCaFile' | 'dataDir'>,
): Parameters<typeof resolveRedis>[0] {
  return {
    ...(settings.redisUrl !== undefined && { configured: settings.redisUrl }),
    ...(settings.redisTlsCaFile !== undefined && { tlsCaFile: settings.redisTlsCaFile }),
    dataDir: settings.dataDir,
  };
}

/**
 * The API connected and answering (or, for a service, waited for while it is away); what it
 * opened is handed to `undo` to close.
 */
export async function reachableApi(
  options: {
    settings: Settings;
    logger: Context['logger'];
    announce: (line: string) => void;
    /** `watch` and `worker`: an API still away after API_WAIT_S is waited for on, not fatal. */
    service?: boolean;
    /** Stops waiting for the API at start. */
    signal?: AbortSignal;
    /** One of the config file's connections; none: API_BASE_URL's (or the sandbox). */
    connection?: Settings['connections'][number];
    /** Who counts the requests, the check at start's included (the process's metrics). */
    observe?: (connectionName: string) => (seen: RequestSeen) => void;
  },
  undo: { push(step: () => Promise<unknown>): void },
): Promise<ConnectedApi & { client: ApiClient }> {
  const { settings, announce } = options;
  const api = await connectApi(settings, announce, options.connection);
  undo.push(() => api.close());
  const dispatcher = new Agent({
    keepAliveTimeout: API_KEEP_ALIVE_MS,
    connections: Math.max(16, settings.concurrency * 2),
  });
  undo.push(() => dispatcher.close());
  const client = new ApiClient({
    baseUrl: api.baseUrl,
    token: api.token,
    timeoutMs: settings.apiTimeoutMs,
    dispatcher,
  });
  if (options.observe) client.onRequest(options.observe(api.connection.name));
  await waitForApi((signal) => probeApi(client, signal), {
    // Two offices may share an API: the messages say which one's token is meant.
    baseUrl: options.connection
      ? `${api.baseUrl} (connection "${api.connection.name}")`
      : api.baseUrl,
    ...(options.connection && {
      tokenSource: `the token file of connection "${options.connection.name}" (${options.connection.tokenFile})`,
      tokenOf: { connection: options.connection.name, file: options.connection.tokenFile },
    }),
    waitS: settings.apiWaitS,
    waitOn: options.service === true,
    announce,
    language: settings.language,
    logger: options.logger,
    ...(options.signal && { signal: options.signal }),
  });
  return { ...api, client };
}

/** Where the private copies of the sheets are kept: DATA_DIR/sheets. */
export function sheetsDirOf(settings: Pick<Settings, 'dataDir'>): string {
  return join(settings.dataDir, 'sheets');
}

/**
 * The context's settings, from the process's; a connection of the config file may have its own
 * notifications (its `notify`), which stand in for the process's for its events.
 */
export function contextSettings(
  settings: Settings,
  redis: ContextSettings['redis'],
  connection?: Pick<Settings['connections'][number], 'notify'>,
): ContextSettings {
  return {
    redis,
    prefix: settings.queuePrefix,
    concurrency: settings.concurrency,
    ...(settings.apiRateLimit !== undefined && { apiRateLimit: settings.apiRateLimit }),
    lockMs: settings.jobLockMs,
    rowAttempts: settings.rowAttempts,
    retryDelayMs: settings.retryDelayMs,
    reportsDir: settings.reportsDir,
    sheetsDir: sheetsDirOf(settings),
    maxAttachmentBytes: Math.floor(settings.maxAttachmentMb * 1024 * 1024),
    ledgerDays: settings.ledgerDays,
    statusDays: settings.statusDays,
    statusFinal: settings.statusFinal,
    // Any process may write a hot-folder sheet's report, so any may archive its work folder.
    archive: { workDir: settings.workDir, archiveDir: settings.archiveDir },
    ...notifyOf(settings, connection?.notify),
    language: settings.language,
  };
}

/**
 * The channels of notifications set (load.ts has checked each is whole), each the office's own
 * when its connection entry gives it (null: none for it); none at all: no `notify`.
 */
function notifyOf(
  settings: Settings,
  office: NonNullable<Settings['connections'][number]['notify']> = {},
): Pick<ContextSettings, 'notify'> {
  const { notifyWebhookUrl: url, notifyWebhookSecret: secret, smtpUrl } = settings;
  const { notifyEmailFrom: from } = settings;
  const top = url === undefined ? undefined : { url, ...(secret !== undefined && { secret }) };
  const webhook = office.webhook === undefined ? top : (office.webhook ?? undefined);
  const to = office.email === undefined ? settings.notifyEmailTo : office.email?.to;
  const email =
    to === undefined || from === undefined || smtpUrl === undefined
      ? undefined
      : { to, from, smtpUrl };
  if (webhook === undefined && email === undefined) return {};
  return {
    notify: {
      ...(webhook && { webhook }),
      ...(email && { email }),
      retryHours: settings.notifyRetryHours,
    },
  };
}
