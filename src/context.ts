/**
 * The context: everything a stage of the importer needs, built once per process (per
 * connection) and passed first to every stage — settings, logger, clock, stop signals, the Redis
 * stores, the queues, the API client. Nothing else is shared, nothing is module-global, so tests
 * run many side by side. See docs/architecture.md.
 */
import { setMaxListeners } from 'node:events';

import type { Logger } from 'pino';

import type { ApiClient } from './api/client.js';
import {
  type ConnectionInfo,
  officeWords,
  type Speech,
  type Words,
} from './connections/connection.js';
import { Metrics, queueCountsOf } from './metrics/metrics.js';
import type { Catalogue } from './orders/catalogue.js';
import { apiOutage, LostLocks, type Outage, reasonText } from './outage.js';
import {
  officeSettings,
  openQueues,
  type Queues,
  type QueueSettings,
  type Worker,
} from './queue/queues.js';
import {
  connectRedis,
  isRedisUnreachable,
  type Redis,
  redisOutage,
  type RedisTarget,
} from './redis/connect.js';
import { CreatesLog, createsDirOf } from './store/creates-log.js';
import { markerKept, openStores, type Stores } from './store/stores.js';

export interface ContextSettings extends QueueSettings {
  /** Row jobs in flight in this process. */
  concurrency: number;
  /** API requests per minute over every worker; undefined for none. */
  apiRateLimit?: number;
  /** How long a worker holds a job before another may take it over (stall recovery). */
  lockMs: number;
  reportsDir: string;
  /**
   * Where each queued sheet's private copy is kept (`$DATA_DIR/sheets`): on this installation's
   * disk, read only by its workers (store/sheet-home.ts).
   */
  sheetsDir: string;
  /** Hot folder: sheets taken into `workDir/<sheetId>/` are archived there once reported. */
  archive?: { workDir: string; archiveDir: string };
  maxAttachmentBytes: number;
  /** How long the duplicates ledger remembers a row (LEDGER_DAYS; 400 when not said). */
  ledgerDays?: number;
  /** `status`: which sheets are read back (by their report's finishedAt); 90 when not said. */
  statusDays?: number;
  /** `status`: order statuses that never change again (STATUS_FINAL; `cancelled`, `done`). */
  statusFinal?: readonly string[];
  /** The sheet job stops feeding rows while more than this many wait (10,000 by default). */
  rowsHighWater?: number;
  /** Where events are told (src/notify/); none configured: nothing is queued. */
  notify?: NotifySettings;
  /** What a person reads is in, unless the connection has its own (LANGUAGE; English). */
  language?: Speech;
}

/** NOTIFY_* and SMTP_URL, checked (settings/table.ts): each channel whole, or absent. */
export interface NotifySettings {
  webhook?: { url: string; secret?: string };
  email?: { to: string[]; from: string; smtpUrl: string };
  /** How long a notification is retried before it is given up (NOTIFY_RETRY_HOURS; 24). */
  retryHours: number;
}

export interface ContextParts {
  settings: ContextSettings;
  catalogue: Catalogue;
  /** The client of `connection`: its URL and token, and no other. */
  api: ApiClient;
  /**
   * Where the orders go. This context queues and works only this connection's jobs, and its id
   * scopes "imported before" (the ledger, the sheet registry).
   */
  connection: ConnectionInfo;
  /**
   * The data folder this process uses (`$DATA_DIR/installation.json`), read once where the
   * process is assembled: a sheet's files are on the disk of the installation that queued it,
   * and only that installation's workers work its jobs. (store/installation.ts's `Installation`,
   * spelled out: this module imports as few others as it can.)
   */
  installation: { id: string; createdAt: string; created: boolean };
  logger: Logger;
  /** Where an outage of Redis or the API is told: one line when it starts, one when it ends. */
  announce?: (line: string) => void;
  now?: () => number;
  /**
   * The process's metrics, shared by its contexts (one per connection); none: this context
   * counts in a registry of its own (a test, a process that serves no /metrics).
   */
  metrics?: Metrics;
  /**
   * Where the process's contexts (one per connection, one Redis) tell a Redis outage and the
   * locks lost in it: filled by the first context opened, so that it is said once per process.
   */
  saidOnce?: SaidOnce;
  /**
   * The process's Redis clients, shared by its offices' contexts (openProcessClients), which the
   * process closes once; none: the context opens clients of its own and closes them with itself.
   */
  clients?: ProcessClients;
}

/** A Redis outage and the locks lost in it, said once per process. */
export interface SaidOnce {
  redis?: Outage;
  locks?: LostLocks;
}

/**
 * The Redis clients of a process: however many offices it serves, two connections, and one more
 * per worker running (its blocking wait for a job, workers/doorbell.ts).
 */
export interface ProcessClients {
  /** The stores' client (every context's `ctx.redis`): it waits out a restart, batched. */
  redis: Redis;
  /**
   * BullMQ's: every queue's commands and the running workers' own (not their blocking wait).
   * BullMQ never closes a client it is given.
   */
  bull: Redis;
  /** Redis away, said once for the process (its two clients' errors and their return). */
  outage: Outage;
  /** Called each time the stores' client is ready again (each context's own look). */
  onReady(listener: () => void): () => void;
  /**
   * `work` done once for the process under `key`, however many contexts ask (the numbered
   * migrations of a prefix, which look at every office's data): the first ask's promise.
   */
  once(key: string, work: () => Promise<unknown>): Promise<unknown>;
  /** Drops both connections (once every context on them is closed). */
  close(): void;
}

export interface Context extends Stores {
  settings: ContextSettings;
  catalogue: Catalogue;
  api: ApiClient;
  connection: ConnectionInfo;
  installation: ContextParts['installation'];
  logger: Logger;
  now: () => number;
  /** What this process did since it started (`/metrics`): rows, sheets, API requests, queues. */
  metrics: Metrics;
  /** The process's stores client (`clients.redis`). */
  redis: Redis;
  clients: ProcessClients;
  queues: Queues;
  /** Redis or the API away for now: every client of this process reports here, told once. */
  outages: { redis: Outage; api: Outage; locks: LostLocks };
  /**
   * `stopping` aborts when a graceful stop begins (jobs that only wait go back to their queue),
   * `now` when requests in flight must be abandoned too (see stopping.ts).
   */
  stop: {
    stopping: AbortController;
    now: AbortController;
    /** The stop under way, once asked for (workers/stop.ts): asked again, it is the same. */
    closing?: Promise<void>;
    /**
     * Undoes what the context attached to what it does not own (the API client's listener, the
     * process clients' return), and closes the clients it opened itself.
     */
    detach: () => void;
  };
  /**
   * This office's workers running now: started while its queues have work, closed once they
   * have none (workers/doorbell.ts); none for a process that only queues.
   */
  workers: Worker[];
  /** Every create sent and answered, on disk beside the sheets' copies (store/creates-log.ts). */
  createsLog: CreatesLog;
  /**
   * The office's words: its reports and e-mails are in its connection's language, else the
   * process's (docs/design.md "Language").
   */
  words: Words;
}

/** What an outage is told with: the log, the clock, and where plain lines go. */
interface Told {
  logger: Logger;
  now: () => number;
  words: Words;
  announce?: (line: string) => void;
}

/**
 * The process's two Redis clients (failing with the URL, never a password, when nothing
 * answers), with their listeners attached once for the process, not once per office: an error
 * says the outage once (`saidOnce`), the stores' client ready again ends it.
 */
export async function openProcessClients(
  target: RedisTarget,
  options: Omit<Told, 'words'> & { language?: Speech | undefined; saidOnce: SaidOnce },
): Promise<ProcessClients> {
  // Rows in flight wait out a Redis restart rather than fail half-way (a create sent, its
  // answer not recorded, would have to be reviewed by a person).
  const redis = await connectRedis(target, { waitWhileAway: true, batched: true });
  let bull: Redis;
  try {
    bull = await connectRedis(target, { waitWhileAway: true });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  // The lines a person watching reads are in the process's language, not the office's.
  const words = officeWords({}, options.language);
  const { logger, now, announce } = options;
  const told: Told = { logger, now, words, ...(announce && { announce }) };
  const outage = (options.saidOnce.redis ??= redisOutage(target, told));
  const ready = new Set<() => void>();
  const done = new Map<string, Promise<unknown>>();
  const trouble = (error: Error) => {
    redisTrouble({ redis, logger, outages: { redis: outage } }, error);
  };
  redis.on('error', trouble);
  bull.on('error', trouble);
  redis.on('ready', () => {
    outage.recovered(redis);
    for (const listener of ready) listener();
  });
  return {
    redis,
    bull,
    outage,
    onReady: (listener) => {
      ready.add(listener);
      return () => ready.delete(listener);
    },
    once: (key, work) => {
      let doing = done.get(key);
      if (doing === undefined) {
        doing = work();
        done.set(key, doing);
        // A failed one is tried again by the next context that asks.
        doing.catch(() => done.delete(key));
      }
      return doing;
    },
    close: () => {
      redis.disconnect();
      bull.disconnect();
    },
  };
}

/**
 * Opens the connection's stores and queues on the process's clients (or on clients of its own,
 * opened here, when none are given).
 */
export async function openContext(parts: ContextParts): Promise<Context> {
  const { logger } = parts;
  // The office's prefix (its own hash tag on a Cluster): its stores and queues both use it.
  const settings = officeSettings(parts.settings, parts.connection.id);
  const now = parts.now ?? Date.now;
  const once = parts.saidOnce ?? {};
  const own = parts.clients === undefined;
  const clients =
    parts.clients ??
    (await openProcessClients(settings.redis, {
      logger,
      now,
      language: settings.language,
      saidOnce: once,
      ...(parts.announce && { announce: parts.announce }),
    }));
  const { redis } = clients;
  let stores: Stores;
  try {
    stores = await openStores(redis, {
      prefix: settings.prefix,
      home: parts.settings.prefix,
      connection: parts.connection,
      apiRateLimit: settings.apiRateLimit,
      ledgerDays: settings.ledgerDays,
      logger,
      now,
      // Refused in a Redis that lost this installation's data; each create's claim checks it.
      installation: parts.installation,
      migrateOnce: (migrate) => clients.once(`migrations ${settings.prefix}`, migrate),
    });
  } catch (error) {
    if (own) clients.close();
    throw error;
  }
  const ctx = assemble(parts, { settings, clients, stores, now, once });
  const forgetting = { told: false, announce: parts.announce };
  const stopHearing = clients.onReady(() => {
    void noticeForgetting(ctx, forgetting);
  });
  const detach = ctx.stop.detach;
  ctx.stop.detach = () => {
    detach();
    stopHearing();
    if (own) clients.close();
  };
  return ctx;
}

/** The context of stores opened: its API client hooked to the pace and metrics, its queues. */
function assemble(
  parts: ContextParts,
  opened: {
    /** The office's (`officeSettings`): its prefix, on a Cluster its own hash tag. */
    settings: ContextSettings;
    clients: ProcessClients;
    stores: Stores;
    now: () => number;
    once: SaidOnce;
  },
): Context {
  const { logger } = parts;
  const { settings, clients, stores, now, once } = opened;
  // The pace learns the API's rate limit from every answer's headers (pace.ts).
  const stopLearning = parts.api.onAnswer((answer) => {
    stores.pace.learn(answer);
  });
  const stopGate = parts.api.gateWith((signal) => stores.pace.holdHeard(signal));
  const metrics = parts.metrics ?? new Metrics({ defaultMetrics: false });
  const stopObserving = parts.api.onRequest(metrics.apiObserver(parts.connection.name));
  // The lines a person watching reads are in the process's language, not the office's.
  const words = officeWords({}, settings.language);
  const told = { logger, now, words, ...(parts.announce && { announce: parts.announce }) };
  const outages = {
    redis: clients.outage,
    api: apiOutage(parts.connection.apiBaseUrl, told),
    // The jobs whose locks lapsed in an outage: summed up in one line, not a warning per job.
    locks: (once.locks ??= new LostLocks(told)),
  };
  // Every office's adds bump the installation's one counter (QUEUE_PREFIX's, whatever the
  // office's prefix): a doorbell reads one key, not one per office.
  const queues = openQueues(settings, parts.connection.id, {
    client: clients.bull,
    home: parts.settings.prefix,
  });
  const stopCounting = metrics.watchQueues(queueCountsOf(parts.connection.name, queues));
  const stop = {
    stopping: new AbortController(),
    now: new AbortController(),
    detach: () => {
      stopLearning();
      stopGate();
      stopObserving();
      stopCounting();
    },
  };
  // Every job in flight listens to these two: as many listeners as jobs is the design.
  setMaxListeners(10_000, stop.stopping.signal, stop.now.signal);
  const ctx: Context = {
    ...stores,
    ...parts,
    settings,
    now,
    metrics,
    redis: clients.redis,
    clients,
    outages,
    stop,
    queues,
    workers: [],
    createsLog: new CreatesLog(createsDirOf(settings.sheetsDir)),
    words: officeWords(parts.connection, settings.language),
  };
  for (const queue of Object.values(ctx.queues))
    queue.on('error', (error: Error) => {
      redisTrouble(ctx, error);
    });
  return ctx;
}

/**
 * Redis back after an outage without the installation's marker: it came back empty. Said once;
 * each create's claim refuses meanwhile (row-scripts.ts), so nothing is sent twice.
 */
async function noticeForgetting(
  ctx: Context,
  forgetting: { told: boolean; announce: ((line: string) => void) | undefined },
): Promise<void> {
  if (forgetting.told) return;
  let kept: boolean;
  try {
    kept = await markerKept(ctx.redis, ctx.keys, ctx.installation.id, ctx.connection.id);
  } catch (error) {
    ctx.logger.debug({ err: error }, 'the installation marker could not be read');
    return;
  }
  if (kept) return;
  forgetting.told = true;
  const line = officeWords({}, ctx.settings.language).t('cli.redis.forgot', {
    connection: ctx.connection.name,
  });
  ctx.logger.error({ connection: ctx.connection.id }, 'Redis came back without its data');
  forgetting.announce?.(line);
}

/** A Redis client's error: an outage is told once; anything else is logged as it comes. */
export function redisTrouble(
  ctx: Pick<Context, 'redis' | 'logger'> & { outages: Pick<Context['outages'], 'redis'> },
  error: Error,
): void {
  if (!isRedisUnreachable(error)) {
    ctx.logger.error({ err: error }, 'Redis error');
  } else if (ctx.redis.status === 'ready') {
    // This process's own client says whether Redis is away (its 'ready' ends the outage); a
    // queue's connection that lags behind it must not start an outage nothing would end.
    ctx.logger.debug({ reason: reasonText(error) }, 'a Redis connection failed');
  } else {
    ctx.outages.redis.failed(error, ctx.redis);
  }
}

/** The signals a stage's waits and requests listen to. */
export function stopSignals(ctx: Pick<Context, 'stop'>): {
  stopping: AbortSignal;
  signal: AbortSignal;
} {
  return { stopping: ctx.stop.stopping.signal, signal: ctx.stop.now.signal };
}
