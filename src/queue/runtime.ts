/**
 * The pipeline of one process: its queues on Redis, the stores that share them, and — when asked —
 * its workers. `import` runs one with workers in-process; `worker` runs only workers; tests run
 * many side by side (everything is injected, nothing is global).
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { basename, resolve } from 'node:path';

import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { reconcileProcessor } from '../../jobs/reconcile.js';
import { reportsProcessor } from '../../jobs/reports.js';
import { rowsProcessor } from '../../jobs/rows.js';
import { sheetsProcessor } from '../../jobs/sheets.js';
import type { ApiClient } from '../api/client.js';
import { AbortedError, apiAway } from '../api/errors.js';
import type { ConnectionInfo } from '../connections/connection.js';
import { adoptLegacyScope } from '../store/legacy-scope.js';
import type { Catalogue } from '../orders/catalogue.js';
import type { ColumnMapping } from '../orders/columns.js';
import { Outage, reasonText } from '../outage.js';
import { connectRedis, isRedisUnreachable, pingRedis } from '../redis/connect.js';
import { redactUrl } from '../redis/url.js';
import { attachmentOpener } from '../rows/attachment-source.js';
import { Keys, queueNames } from '../store/keys.js';
import { Ledger } from '../store/ledger.js';
import { NotTaken } from '../store/not-taken.js';
import { ApiPace } from '../store/pace.js';
import type { RowOutcome } from '../store/results.js';
import { closeSheetEarly, type GiveUpDeps, settleGivenUpRow } from '../rows/give-up.js';
import { recentProgress, type SheetProgress, sheetProgress } from '../store/progress.js';
import { discardSheetCopy, takeSheetCopy } from '../store/sheet-copy.js';
import { SheetStore } from '../store/sheet-store.js';

export type { SheetProgress } from '../store/progress.js';

export interface PipelineConfig {
  redisUrl: string;
  /** Key prefix of every queue and key; a `{hash tag}` keeps them in one Redis Cluster slot. */
  prefix: string;
  /** Row jobs in flight in this process. */
  concurrency: number;
  /** API requests per minute over every worker; undefined for none. */
  apiRateLimit?: number;
  /** How long a worker holds a job before another may take it over (stall recovery). */
  lockMs: number;
  /** Attempts of a row job before it fails. */
  rowAttempts: number;
  /** First retry delay; doubles each time, with jitter. */
  retryDelayMs: number;
  reportsDir: string;
  /** Where each queued sheet's private copy is kept (`$DATA_DIR/sheets`; shared by every host). */
  sheetsDir: string;
  maxAttachmentBytes: number;
  catalogue: Catalogue;
  /** The client of `connection`: its URL and token, and no other. */
  api: ApiClient;
  /**
   * Where the orders go. This pipeline queues and works only this connection's jobs, and its
   * id scopes "imported before" (the ledger, the sheet registry).
   */
  connection: ConnectionInfo;
  logger: Logger;
  /** Where an outage of Redis or the API is told: one line when it starts, one when it ends. */
  say?: (line: string) => void;
  now?: () => number;
  /** Hot folder: sheets taken into `workDir/<sheetId>/` are archived there once reported. */
  archive?: { workDir: string; archiveDir: string };
}

export interface EnqueueOptions {
  allowDuplicates?: boolean;
  mapping?: ColumnMapping;
  /** The id to give the sheet (the hot folder names its work folder after it). */
  sheetId?: string;
}

export class Pipeline {
  readonly keys: Keys;
  readonly store: SheetStore;
  readonly ledger: Ledger;
  readonly pace: ApiPace;
  /** What the hot folder did not take, for the dashboard. */
  readonly notTaken: NotTaken;
  readonly queues: { sheets: Queue; rows: Queue; reports: Queue };
  /** Redis away for now: every client of this process reports here, and it is told once. */
  readonly redisOutage: Outage;
  /** The API away while rows go on (they are retried, §3): told once, not per attempt. */
  readonly apiOutage: Outage;
  readonly #redis: Redis;
  readonly #config: PipelineConfig;
  readonly #workers: Worker[] = [];
  readonly #abort = new AbortController();
  /** Aborted when a graceful stop begins: jobs that are only waiting go back to their queue. */
  readonly #stopping = new AbortController();
  readonly #now: () => number;

  private constructor(config: PipelineConfig, redis: Redis) {
    this.#config = config;
    this.#redis = redis;
    this.#now = config.now ?? Date.now;
    const told = { logger: config.logger, now: this.#now, ...(config.say && { say: config.say }) };
    this.redisOutage = new Outage({
      ...told,
      subject: `Redis at ${redactUrl(config.redisUrl)}`,
      meanwhile: 'the work waits for it and goes on once it is back',
    });
    this.apiOutage = new Outage({
      ...told,
      subject: `The API at ${config.connection.apiBaseUrl}`,
      meanwhile: 'rows wait for it and are retried',
    });
    redis.on('error', (error: Error) => {
      this.#redisTrouble(error);
    });
    redis.on('ready', () => {
      this.redisOutage.recovered();
    });
    // Every job in flight listens to these two: as many listeners as jobs is the design.
    setMaxListeners(10_000, this.#abort.signal, this.#stopping.signal);
    this.keys = new Keys(config.prefix);
    this.store = new SheetStore(redis, this.keys);
    this.ledger = new Ledger(redis, this.keys);
    this.notTaken = new NotTaken(redis, this.keys);
    this.pace = new ApiPace(
      redis,
      this.keys.apiPace(config.connection.id),
      config.apiRateLimit,
      this.#now,
    );
    const backoff = { type: 'exponential', delay: config.retryDelayMs, jitter: 0.5 } as const;
    const queue = (name: string, attempts: number) =>
      new Queue(name, {
        connection: this.#connection(),
        prefix: config.prefix,
        defaultJobOptions: {
          attempts,
          backoff,
          // Results live in the reports, not in Redis: keep only the latest few jobs for a look.
          removeOnComplete: { count: 1000 },
          removeOnFail: { count: 5000 },
        },
      });
    const names = queueNames(config.connection.id);
    this.queues = {
      sheets: queue(names.sheets, 5),
      rows: queue(names.rows, config.rowAttempts),
      reports: queue(names.reports, 5),
    };
    for (const q of Object.values(this.queues)) {
      q.on('error', (error: Error) => {
        this.#redisTrouble(error);
      });
    }
  }

  /** A Redis client's error: an outage is told once; anything else is logged as it comes. */
  #redisTrouble(error: Error): void {
    if (!isRedisUnreachable(error)) {
      this.#config.logger.error({ err: error }, 'Redis error');
    } else if (this.#redis.status === 'ready') {
      // This process's own client says whether Redis is away (its 'ready' ends the outage); a
      // queue's connection that lags behind it must not start an outage nothing would end.
      this.#config.logger.debug({ reason: reasonText(error) }, 'a Redis connection failed');
    } else {
      this.redisOutage.failed(error);
    }
  }

  /**
   * Connects to Redis (failing with the URL, never a password, when nothing answers) and makes
   * the connection known, so that the dashboard finds its queues.
   */
  static async connect(config: PipelineConfig): Promise<Pipeline> {
    // Rows in flight wait out a Redis restart rather than fail half-way (a create sent, its
    // answer not recorded, would have to be reviewed by a person).
    const redis = await connectRedis(config.redisUrl, { waitWhileAway: true });
    const { id, name, apiBaseUrl, sandbox } = config.connection;
    try {
      const keys = new Keys(config.prefix);
      await redis.hset(keys.connections, id, JSON.stringify({ name, apiBaseUrl, sandbox }));
      const adopted = await adoptLegacyScope(redis, keys, config.connection);
      if (adopted.ledger + adopted.sheets > 0)
        config.logger.info(
          { connection: id, ...adopted },
          'rows and sheets imported before connections existed are known to this connection',
        );
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    return new Pipeline(config, redis);
  }

  get connection(): ConnectionInfo {
    return this.#config.connection;
  }

  /** Options, not a client: BullMQ then opens and closes its own connections. */
  #connection(): ConnectionOptions {
    // BullMQ wants connections that wait for Redis rather than fail a command.
    return { url: this.#config.redisUrl, maxRetriesPerRequest: null };
  }

  /** Starts this process's workers for every queue, and the reconciler's schedule. */
  async startWorkers(): Promise<void> {
    const config = this.#config;
    const logger = config.logger;
    const queueReport = (sheetId: string) => this.queueReport(sheetId);
    const giveUp = this.#giveUpDeps();
    const common = {
      prefix: config.prefix,
      lockDuration: config.lockMs,
      stalledInterval: Math.max(500, Math.floor(config.lockMs / 2)),
      // A stalled row job resumes from its recorded step: stalls are safe to recover from.
      maxStalledCount: 50,
    };
    const connectionId = config.connection.id;
    const sheets = new Worker(
      this.queues.sheets.name,
      sheetsProcessor({
        store: this.store,
        ledger: this.ledger,
        catalogue: config.catalogue,
        maxAttachmentBytes: config.maxAttachmentBytes,
        connectionId,
        sheetsDir: config.sheetsDir,
        rows: this.queues.rows,
        queueReport,
        hasRowJob: giveUp.hasRowJob,
        logger,
        signal: this.#abort.signal,
        stopping: this.#stopping.signal,
      }),
      { ...common, connection: this.#connection(), concurrency: 2 },
    );
    const rows = new Worker(
      this.queues.rows.name,
      rowsProcessor({
        connectionId,
        api: config.api,
        ledger: this.ledger,
        pace: this.pace,
        finish: async (sheetId: string, row: number, outcome: RowOutcome) => {
          if (outcome.status === 'created') this.apiOutage.recovered();
          if (await this.store.finalize(sheetId, [[row, outcome]])) await queueReport(sheetId);
        },
        isFinal: (sheetId, row) => this.store.isFinal(sheetId, row),
        creates: this.store,
        openAttachment: attachmentOpener(this.store, config.maxAttachmentBytes),
        rateLimit: (ms) => this.queues.rows.rateLimit(ms),
        stopAll: (reason) => this.stopAll(reason),
        giveUp: (data, attempts, reason) => settleGivenUpRow(data, attempts, reason, giveUp),
        logger,
        now: this.#now,
        signal: this.#abort.signal,
        stopping: this.#stopping.signal,
      }),
      {
        ...common,
        connection: this.#connection(),
        concurrency: config.concurrency,
        // Also what makes a Retry-After (queue.rateLimit) take effect at all.
        limiter: { max: config.apiRateLimit ?? 1_000_000, duration: 60_000 },
      },
    );
    const reportDeps = {
      connection: config.connection,
      store: this.store,
      reportsDir: config.reportsDir,
      sheetsDir: config.sheetsDir,
      catalogue: config.catalogue,
      maxAttachmentBytes: config.maxAttachmentBytes,
      logger,
      now: this.#now,
      ...(config.archive && { archive: config.archive }),
    };
    const report = reportsProcessor(reportDeps);
    const reconcile = reconcileProcessor({
      ...giveUp,
      ownsSheet: async (sheetId) => (await this.store.get(sheetId))?.connectionId === connectionId,
      failedRows: (start, end) => this.queues.rows.getFailed(start, end),
      failedSheets: (start, end) => this.queues.sheets.getFailed(start, end),
    });
    const reports = new Worker(
      this.queues.reports.name,
      async (job) => (job.name === 'reconcile' ? reconcile(job) : report(job)),
      { ...common, connection: this.#connection(), concurrency: 1 },
    );
    rows.on('failed', (job, error) => {
      if (job && isGivenUp(job, error)) {
        void this.#guard(settleGivenUpRow(job.data, job.attemptsStarted, error.message, giveUp));
      }
    });
    sheets.on('failed', (job, error) => {
      const sheetId = (job?.data as { sheetId?: unknown } | undefined)?.sheetId;
      if (job && typeof sheetId === 'string' && isGivenUp(job, error)) {
        void this.#guard(
          closeSheetEarly(sheetId, `the sheet job gave up: ${error.message}`, giveUp),
        );
      }
    });
    for (const worker of [sheets, rows, reports]) {
      worker.on('failed', (job, error) => {
        const where = { queue: worker.name, jobId: job?.id, attempt: job?.attemptsMade };
        if (error instanceof AbortedError) logger.info(where, 'job stopped; it resumes later');
        else if (isRedisUnreachable(error)) this.#redisTrouble(error);
        else if (apiAway(error)) this.apiOutage.failed(error);
        else if (isLostLock(error)) logger.warn({ ...where, reason: error.message }, LOST_LOCK);
        else logger.warn({ ...where, err: error }, 'job attempt failed');
      });
      worker.on('error', (error) => {
        if (isRedisUnreachable(error)) this.#redisTrouble(error);
        else if (isLostLock(error))
          logger.warn({ queue: worker.name, reason: error.message }, LOST_LOCK);
        else logger.error({ queue: worker.name, err: error }, 'worker error');
      });
      this.#workers.push(worker);
    }
    await this.queues.reports.upsertJobScheduler(
      'reconcile',
      { every: 30_000 },
      { name: 'reconcile' },
    );
  }

  #giveUpDeps(): GiveUpDeps {
    return {
      connectionId: this.#config.connection.id,
      store: this.store,
      ledger: this.ledger,
      queueReport: (sheetId) => this.queueReport(sheetId),
      hasRowJob: async (jobId) => (await this.queues.rows.getJob(jobId)) !== undefined,
      logger: this.#config.logger,
    };
  }

  /** Runs background settling, logging rather than losing what goes wrong. */
  async #guard(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (error) {
      this.#config.logger.error({ err: error }, 'could not settle a given-up job');
    }
  }

  async queueReport(sheetId: string): Promise<void> {
    await this.queues.reports.add(
      'report',
      { sheetId },
      { jobId: `${sheetId}.report`, removeOnFail: true },
    );
  }

  /**
   * Registers a sheet for import and queues its sheet job. The same bytes imported before
   * give a sheet whose rows are all `duplicate`; the same bytes still being imported give
   * that import back (it resumes rather than starts again), unless the sheet comes with an id
   * of its own (the hot folder's). `allowDuplicates` skips all of this.
   */
  async enqueue(
    path: string,
    options: EnqueueOptions = {},
  ): Promise<{ sheetId: string; resumed: boolean }> {
    const absolute = resolve(path);
    const sheetId = options.sheetId ?? newSheetId(this.#now());
    // Every read of the sheet from now on parses this copy: the sheet imported is the one hashed.
    const { sha256, origin } = await takeSheetCopy(absolute, this.#config.sheetsDir, sheetId);
    const base = {
      sheetId,
      path: absolute,
      name: basename(absolute),
      sha256,
      connectionId: this.#config.connection.id,
      origin,
      apiBaseUrl: this.#config.connection.apiBaseUrl,
      sandbox: this.#config.connection.sandbox,
      allowDuplicates: options.allowDuplicates ?? false,
      startedAt: new Date(this.#now()).toISOString(),
      ...(options.mapping && { mapping: options.mapping }),
    };
    const content = `${this.#config.connection.id}|${sha256}`;
    if (base.allowDuplicates) {
      // Asked for on purpose: a new import of these bytes, whatever was imported before.
      await this.store.create(base);
    } else if (!(await this.store.claimSha(content, sheetId))) {
      const earlier = (await this.store.findBySha(content)) ?? '';
      if (earlier === sheetId) {
        // Queued under this very id before (a hot-folder intake resumed after a crash), or
        // claimed by a process that stopped before it wrote the sheet's record.
        const sheet = await this.store.get(sheetId);
        if (!sheet) await this.store.create(base);
        if (sheet?.state !== 'done') await this.#queueSheet(sheetId);
        else await discardSheetCopy(this.#config.sheetsDir, sheetId, base.name); // reported
        return { sheetId, resumed: true };
      }
      // Another process may have claimed the content a moment ago and not yet written its record.
      let earlierSheet = await this.store.get(earlier);
      for (let tries = 0; !earlierSheet && tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        earlierSheet = await this.store.get(earlier);
      }
      if (!earlierSheet && (await this.store.replaceSha(content, earlier, sheetId))) {
        // Claimed by a process that stopped before it recorded its sheet: nothing was sent for
        // it, so this import takes the content over (the rows' own claims still stand guard).
        await this.store.create(base);
        await this.#queueSheet(sheetId);
        return { sheetId, resumed: false };
      }
      if (earlierSheet && earlierSheet.state !== 'done') {
        await this.#queueSheet(earlier);
        // Given again by path (`import` run twice), it is that import, resumed. A copy taken by
        // the hot folder has a folder of its own and must get its own report: it becomes a
        // duplicate sheet, whose job waits until the earlier one is done.
        if (options.sheetId === undefined) {
          await discardSheetCopy(this.#config.sheetsDir, sheetId, base.name);
          return { sheetId: earlier, resumed: true };
        }
      }
      // The content stays registered to the import that sent its orders.
      await this.store.create({ ...base, duplicateOf: earlier });
    } else {
      await this.store.create(base);
    }
    await this.#queueSheet(sheetId);
    return { sheetId, resumed: false };
  }

  async #queueSheet(sheetId: string): Promise<void> {
    await this.queues.sheets.add('sheet', { sheetId }, { jobId: `${sheetId}.sheet` });
  }

  async progress(sheetId: string): Promise<SheetProgress | undefined> {
    return sheetProgress(this.store, sheetId);
  }

  /** The latest sheets, newest first, as the dashboard shows them. */
  async overview(limit = 200): Promise<SheetProgress[]> {
    return recentProgress(this.store, limit);
  }

  /** Answers when Redis does (for /healthz). */
  redisAnswers(): Promise<boolean> {
    return pingRedis(this.#redis, this.#config.logger);
  }

  /** Why the import stopped for every row, if it did. */
  async fatal(): Promise<string | undefined> {
    return (await this.#redis.get(this.keys.fatal(this.#config.connection.id))) ?? undefined;
  }

  /** Pauses the rows queue for every worker and records why (a refused token). */
  async stopAll(reason: string): Promise<void> {
    await this.#redis.set(this.keys.fatal(this.#config.connection.id), reason);
    await this.queues.rows.pause();
    this.#config.logger.error({ reason }, 'import stopped');
  }

  /** Clears a recorded stop and resumes the rows queue (the token was fixed). */
  async resume(): Promise<void> {
    await this.#redis.del(this.keys.fatal(this.#config.connection.id));
    await this.queues.rows.resume();
  }

  /**
   * Stops: workers finish the jobs in flight (bounded by `graceMs`), then everything closes.
   * With `force`, requests in flight are aborted; their rows resume from their recorded step.
   */
  async close(options: { graceMs?: number; force?: boolean } = {}): Promise<void> {
    this.#closing ??= this.#close(options);
    if (options.force) await this.forceStop();
    await this.#closing;
  }

  /** Stops at once: requests in flight are aborted, their rows resume from their recorded step. */
  async forceStop(): Promise<void> {
    this.#abort.abort(new Error('stopping now'));
    await Promise.all(this.#workers.map((w) => w.close(true)));
  }

  #closing: Promise<void> | undefined;

  async #close(options: { graceMs?: number; force?: boolean }): Promise<void> {
    this.#stopping.abort(new Error('stopping'));
    // Without Redis no row in flight can finish: waiting for them would only hang the stop.
    const away = this.redisOutage.since !== undefined;
    if (options.force || away) this.#abort.abort(new Error('stopping now'));
    const closing = Promise.all(this.#workers.map((w) => w.close(options.force || away)));
    if ((await within(closing, away ? 0 : (options.graceMs ?? 30_000))) === 'late') {
      this.#abort.abort(new Error('grace period over'));
      // Asking a close under way again does not make it forceful: what it waits for is cut off.
      const forced = Promise.all(this.#workers.map((w) => w.close(true)));
      if ((await within(forced, CUT_OFF_MS)) === 'late') await this.#cutOff();
    }
    // A queue closes with a QUIT, which would wait for a Redis that is away.
    const queues = Promise.all(Object.values(this.queues).map((q) => q.close()));
    queues.catch((error: unknown) => {
      this.#config.logger.debug({ err: error }, 'a queue did not close cleanly');
    });
    if ((await within(queues, this.redisOutage.since === undefined ? CUT_OFF_MS : 0)) === 'late')
      await this.#cutOff();
    this.#redis.disconnect();
  }

  /** Drops every connection of the workers and queues at once (their jobs resume later). */
  async #cutOff(): Promise<void> {
    const clients = [...this.#workers, ...Object.values(this.queues)];
    await within(Promise.allSettled(clients.map((c) => c.disconnect())), CUT_OFF_MS);
  }
}

/** How long a forced close may take before its connections are simply dropped. */
const CUT_OFF_MS = 5000;

/** Whether `work` settled within `ms` (it goes on either way). */
async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((done) => {
    timer = setTimeout(() => {
      done('late');
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

const LOST_LOCK =
  "a job's lock was lost (Redis was away, or the job ran past JOB_LOCK_MS): it is taken over and resumes from its last recorded step";

/**
 * BullMQ's word that a job's lock lapsed, typically after a Redis restart: expected, and handled
 * by stalled-job recovery, so one line without a stack rather than an error per job.
 */
function isLostLock(error: Error): boolean {
  return /missing lock|could not renew lock|lock mismatch/i.test(error.message);
}

/** BullMQ will not run this job again. */
function isGivenUp(
  job: { attemptsMade: number; opts: { attempts?: number } },
  error: Error,
): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled more than/i.test(error.message);
}

/** `20261126-101502-3fa9c1`: sortable, readable, and safe as part of a BullMQ job id. */
export function newSheetId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
