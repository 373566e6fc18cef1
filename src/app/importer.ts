/**
 * What `import`, `watch` and `worker` share: settings → Redis, the API (or the embedded sandbox,
 * said out loud), the catalogue, the context and its workers, and a close that undoes all of it.
 */
import { setMaxListeners } from 'node:events';

import type { Logger } from 'pino';

import { Metrics } from '../metrics/metrics.js';
import type { Settings } from '../settings/load.js';
import type { Context, ContextParts } from '../context.js';
import { markedFirstUse, openRemembering } from './context-start.js';
import { Doorbell } from '../workers/doorbell.js';
import { startWorkers } from '../workers/start.js';
import { type CloseOptions, closeContext, forceStop } from '../workers/stop.js';
import { probeApi } from './api-connection.js';
import {
  catalogueOf,
  contextSettings,
  installationOfSettings,
  reachableApi,
  redisOf,
} from './process-parts.js';

export interface Importer {
  ctx: Context;
  connection: Context['connection'];
  apiBaseUrl: string;
  catalogue: Context['catalogue'];
  /** The Redis it uses, as messages say it (no password). */
  redisUrl: string;
  /** The config file's entry it was opened for; undefined for API_BASE_URL's (or the sandbox). */
  configured: Settings['connections'][number] | undefined;
  /**
   * What runs its workers on demand: the process's, with several offices; else its own, none
   * when it has no workers.
   */
  doorbell: Doorbell | undefined;
  /** Whether the API answers and takes the token (for /healthz). */
  apiAnswers(): Promise<boolean>;
  close(options?: CloseOptions): Promise<void>;
}

export interface OpenImporterOptions {
  settings: Settings;
  logger: Logger;
  /** Where announcements go (stderr). */
  announce: (line: string) => void;
  workers: boolean;
  /** `watch` and `worker`: an API still away after API_WAIT_S is waited for on, not fatal. */
  service?: boolean;
  /** Stops waiting for the API at start (a signal while starting up). */
  signal?: AbortSignal;
  /** One of the config file's connections; none: API_BASE_URL's (or the embedded sandbox). */
  connection?: Settings['connections'][number];
  /** The process's metrics, shared by its importers; none: the context's own. */
  metrics?: Metrics;
  /**
   * Redis, the catalogue, the Redis clients and the doorbell when several importers share them:
   * their opener releases them (process-shared.ts).
   */
  shared?: {
    redis: Awaited<ReturnType<typeof redisOf>>;
    catalogue: Context['catalogue'];
    installation: Context['installation'];
    /** Where the importers say a Redis outage once for the process (context.ts). */
    saidOnce?: ContextParts['saidOnce'];
    clients: NonNullable<ContextParts['clients']>;
    doorbell: Doorbell;
  };
}

/** A service's start: its first stop signal, its metrics, and how it opens its importers. */
export interface ServiceStart {
  firstSignal: Promise<string>;
  metrics: Metrics;
  opened(
    parts: Pick<OpenImporterOptions, 'settings' | 'logger' | 'announce' | 'connection' | 'shared'>,
  ): Promise<Importer>;
}

/**
 * `watch` and `worker`: the first stop signal is listened for from the start, so a Ctrl+C while
 * starting up stops gracefully once started, or at once while the API is waited for. `opened`
 * then opens the importer as a service (with workers; an API away at start is waited for on),
 * counting into the process's one registry (`metrics`, served at /metrics).
 */
export function serviceStart(io: { stopSignal(): Promise<string> }): ServiceStart {
  const metrics = new Metrics();
  const firstSignal = io.stopSignal();
  const starting = new AbortController();
  // Every office's start waits on it: one listener per office is the design.
  setMaxListeners(0, starting.signal);
  void firstSignal.then(() => {
    starting.abort();
  });
  return {
    firstSignal,
    metrics,
    opened: (parts) =>
      openImporter({ ...parts, metrics, workers: true, service: true, signal: starting.signal }),
  };
}

export async function openImporter(options: OpenImporterOptions): Promise<Importer> {
  const { settings, logger, announce } = options;
  const undo = new UndoStack();
  try {
    const catalogue = options.shared?.catalogue ?? (await catalogueOf(settings));
    const installation = options.shared?.installation ?? (await installationOfSettings(settings));
    const redis = options.shared?.redis ?? (await redisOf(settings, announce, logger));
    if (!options.shared) {
      undo.push(() => redis.release());
      await markedFirstUse(redis.target, settings.queuePrefix, installation);
    }
    const { metrics } = options;
    const api = await reachableApi(
      { ...options, ...(metrics && { observe: (name: string) => metrics.apiObserver(name) }) },
      undo,
    );
    let closeOptions: CloseOptions = {};
    const { ctx, doorbell } = await assembleImporter({
      settings: contextSettings(settings, redis.target, options.connection),
      catalogue,
      api: api.client,
      connection: api.connection,
      installation,
      logger,
      announce,
      ...(options.metrics && { metrics: options.metrics }),
      ...(options.shared?.saidOnce && { saidOnce: options.shared.saidOnce }),
      ...(options.shared && { clients: options.shared.clients, doorbell: options.shared.doorbell }),
      workers: options.workers,
      service: options.service,
      signal: options.signal,
    });
    undo.push(() => closeContext(ctx, closeOptions));
    return {
      ctx,
      connection: api.connection,
      apiBaseUrl: api.baseUrl,
      catalogue,
      redisUrl: redis.target.shown,
      configured: options.connection,
      doorbell: doorbell ?? options.shared?.doorbell,
      apiAnswers: async () => (await probeApi(api.client)) === undefined,
      close: async (how = {}) => {
        if (!undo.started) closeOptions = how;
        else if (how.force) await forceStop(ctx); // a second signal while stopping
        await undo.run();
      },
    };
  } catch (error) {
    await undo.run();
    throw error;
  }
}

/** The parts of one importer's context, and how it runs. */
export interface AssemblyParts extends ContextParts {
  /** Where announcements go (stderr). */
  announce: (line: string) => void;
  /** With the context's workers (`import` without --no-workers, `watch`, `worker`). */
  workers: boolean;
  /** `watch` and `worker`: a Redis that forgot the installation is waited for, not fatal. */
  service?: boolean | undefined;
  /** Stops the waiting. */
  signal?: AbortSignal | undefined;
  /** The process's doorbell; none: the importer's workers get one of their own. */
  doorbell?: Doorbell | undefined;
}

/**
 * One importer's context from parts already made (openImporter's, or a test's): opened where it
 * may work (context-start.ts), then its workers started. Its close stops them (a second call with
 * `force`: at once) and closes the context.
 */
export async function assembleImporter(parts: AssemblyParts): Promise<{
  ctx: Context;
  doorbell: Doorbell | undefined;
  close: (how?: CloseOptions) => Promise<void>;
}> {
  const { workers, service, signal, doorbell: given, ...contextParts } = parts;
  const ctx = await openRemembering(contextParts, { service, signal });
  const close = (how: CloseOptions = {}) => closeContext(ctx, how);
  const doorbell = workers
    ? (given ?? new Doorbell({ logger: ctx.logger, ownedByItsOffices: true }))
    : undefined;
  try {
    if (doorbell) await startWorkers(ctx, doorbell);
  } catch (error) {
    await close({ grace: 'brief' });
    throw error;
  }
  return { ctx, doorbell, close };
}

/** What was opened, closed in the reverse order, once however often it is asked. */
class UndoStack {
  readonly #steps: Array<() => Promise<unknown>> = [];
  #running: Promise<void> | undefined;

  push(step: () => Promise<unknown>): void {
    this.#steps.push(step);
  }

  get started(): boolean {
    return this.#running !== undefined;
  }

  run(): Promise<void> {
    this.#running ??= (async () => {
      for (const step of this.#steps.reverse()) await step();
    })();
    return this.#running;
  }
}

/**
 * The sheet stores of some importers, one per key space: one for all on a single server or a
 * Sentinel set, each office's own on a Cluster (store/keys.ts, `KeyLayout`).
 */
export function sheetStores(importers: readonly Importer[]): Array<Importer['ctx']['store']> {
  const stores = new Map<string, Importer['ctx']['store']>();
  for (const { ctx } of importers)
    if (!stores.has(ctx.keys.prefix)) stores.set(ctx.keys.prefix, ctx.store);
  return [...stores.values()];
}
