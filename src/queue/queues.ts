/**
 * A connection's queues and where their jobs are added (repeating schedules are set where they
 * are decided: the reconciler's in workers/start.ts, scans in intake/schedules.ts, the status
 * refresh in workers/schedules.ts). Retry policy
 * is data here: attempts and backoff travel on each job, so every worker of every host applies
 * the same.
 */
import {
  type BulkJobOptions,
  type ConnectionOptions,
  type JobsOptions,
  Queue,
  type QueueOptions,
} from 'bullmq';
import type { Redis } from 'ioredis';

import { bullmqOptions } from '../redis/options.js';
import type { RedisTarget } from '../redis/target.js';
import { KeyLayout, Keys, queueNames } from '../store/keys.js';
import {
  FILE_JOB_ATTEMPTS,
  RETRY_JITTER,
  STALLED_CHECK_MIN_MS,
  STALLED_RESUMES,
  STATUS_JOB_ATTEMPTS,
} from '../policy.js';

/** BullMQ's worker, for what holds a context's workers (the context) without importing BullMQ. */
export type { Worker } from 'bullmq';

export interface QueueSettings {
  /** Where Redis is (REDIS_URL, read once at start): every connection is made from it. */
  redis: RedisTarget;
  /**
   * Key prefix of every queue and key; a `{hash tag}` keeps them in one Redis Cluster slot. A
   * context's is its office's (`officeSettings`).
   */
  prefix: string;
  /** Attempts of a row job before it fails. */
  rowAttempts: number;
  /** First retry delay; doubles each time, with jitter. */
  retryDelayMs: number;
}

/**
 * A queue of an office that tells when jobs are added to it: a worker of its own runs only while
 * its queue has work (workers/doorbell.ts). This process's doorbell is told at once; every
 * process's, through the prefix's doorbell counter (store/keys.ts), which each reads every second.
 */
export class OfficeQueue extends Queue {
  // Not #private fields: a test's stand-in made with Object.create(queue) adds through them too.
  private readonly added = new Set<() => void>();
  private readonly shared: Redis;
  /** The installation's doorbell counter (Keys.doorbell, of QUEUE_PREFIX), bumped on adds. */
  readonly doorbell: string;

  /** `doorbell`: the installation's counter (Keys.doorbell), the one every doorbell reads. */
  constructor(name: string, opts: QueueOptions & { connection: Redis; doorbell: string }) {
    const { doorbell, ...rest } = opts;
    super(name, rest);
    this.shared = opts.connection;
    this.doorbell = doorbell;
  }

  /** Calls `listener` after each add of this process; returns what stops it. */
  whenAdded(listener: () => void): () => void {
    this.added.add(listener);
    return () => this.added.delete(listener);
  }

  protected override async addJob(name: string, data: unknown, opts?: JobsOptions) {
    const job = await super.addJob(name, data, opts);
    this.tell();
    return job;
  }

  override async addBulk(jobs: Array<{ name: string; data: unknown; opts?: BulkJobOptions }>) {
    const added = await super.addBulk(jobs);
    if (jobs.length > 0) this.tell();
    return added;
  }

  /** A queue paused (a refused token) that goes on again has work for its workers. */
  override async resume(): Promise<void> {
    await super.resume();
    this.tell();
  }

  private tell(): void {
    for (const listener of this.added) listener();
    // Sent after the add on the same connection: a doorbell that sees it moved finds the job.
    this.shared.incr(this.doorbell).catch((error: unknown) => {
      this.emit('error', error as Error);
    });
  }
}

/** The kinds of an office's queues, each its own BullMQ queue (and, on demand, its worker). */
export const QUEUE_KINDS = ['sheets', 'rows', 'reports', 'intake', 'notify', 'status'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

// A type, not an interface: Object.values() then knows its values are queues.
export type Queues = {
  sheets: OfficeQueue;
  rows: OfficeQueue;
  reports: OfficeQueue;
  /** Scheduled scans of folders (`schedules` in the config file): only `watch` works them. */
  intake: OfficeQueue;
  /**
   * Notifications (src/notify/): a job per event and channel. It retries itself, with its own
   * backoff and deadline (NOTIFY_RETRY_HOURS), so it has one attempt here.
   */
  notify: OfficeQueue;
  /**
   * Reading back the orders of reported sheets: the scheduled refresh (`status-sync`) and one
   * `status` job per sheet it fans out (src/status/refresh.ts).
   */
  status: OfficeQueue;
};

/** The status refresh's scheduler id on each connection's status queue, and its firings' name. */
export const STATUS_SYNC = 'status-sync';

/**
 * Options, not a client: BullMQ then opens and closes its own connections (tools, tests; on one
 * server or a Sentinel set: a Cluster client is made whole, connect.ts).
 */
export function bullConnection(target: RedisTarget): ConnectionOptions {
  return bullmqOptions(target);
}

/**
 * An office's settings from the installation's: its keys' and queues' prefix (store/keys.ts,
 * `KeyLayout`: the installation's own on one server, a hash tag of the office's on a Cluster).
 */
export function officeSettings<T extends QueueSettings>(settings: T, connectionId: string): T {
  const { redis } = settings;
  if (redis.kind !== 'cluster') return settings;
  return { ...settings, prefix: KeyLayout.of(settings.prefix, redis).officePrefix(connectionId) };
}

/**
 * A worker's options on the connection's queues: its lock (JOB_LOCK_MS, a setting), how often
 * stalled jobs are looked for (every half lock), and how often a stalled job is resumed. Its
 * commands go through the process's BullMQ client (`shared`, which BullMQ then never closes);
 * only its blocking wait for a job has a connection of its own, which it opens and closes.
 */
export function workerOptions(
  settings: Pick<QueueSettings, 'prefix'> & { lockMs: number },
  concurrency: number,
  shared: Redis,
) {
  return {
    connection: shared,
    prefix: settings.prefix,
    concurrency,
    lockDuration: settings.lockMs,
    stalledInterval: Math.max(STALLED_CHECK_MIN_MS, Math.floor(settings.lockMs / 2)),
    // A stalled row job resumes from its recorded step: stalls are safe to recover from.
    maxStalledCount: STALLED_RESUMES,
  };
}

/**
 * The connection's queues, every one on the process's one BullMQ client (`shared`): a queue
 * opens no connection of its own, whatever the number of offices. Their Redis version is not
 * asked once per queue (an INFO each); the workers ask it on their own connections.
 */
export function openQueues(
  settings: QueueSettings,
  connectionId: string,
  shared: {
    client: Redis;
    /** The installation's prefix (QUEUE_PREFIX), whose doorbell counter every add bumps. */
    home: string;
  },
): Queues {
  const { doorbell } = new Keys(shared.home);
  const backoff = {
    type: 'exponential',
    delay: settings.retryDelayMs,
    jitter: RETRY_JITTER,
  } as const;
  // Results live in the reports, not in Redis: keep only the latest few jobs for a look.
  const queue = (
    name: string,
    attempts: number,
    keep: { count: number } | true = { count: 1000 },
  ) =>
    new OfficeQueue(name, {
      connection: shared.client,
      doorbell,
      skipVersionCheck: true,
      prefix: settings.prefix,
      defaultJobOptions: {
        attempts,
        backoff,
        removeOnComplete: keep,
        removeOnFail: { count: 5000 },
      },
    });
  const names = queueNames(connectionId);
  return {
    sheets: queue(names.sheets, FILE_JOB_ATTEMPTS),
    // A finished row job is deleted at once: keeping the last thousand costs Redis a sorted set's
    // add and trim, and an older job's removal, on every row (issue 11, CPU per row in Redis).
    rows: queue(names.rows, settings.rowAttempts, true),
    reports: queue(names.reports, FILE_JOB_ATTEMPTS),
    intake: queue(names.intake, 1),
    notify: queue(names.notify, 1),
    status: queue(names.status, STATUS_JOB_ATTEMPTS),
  };
}

/** A row job's id: deterministic, so that adding it twice is a no-op (BullMQ refuses `:`). */
export function rowJobId(sheetId: string, row: number): string {
  return `${sheetId}.r${row}`;
}

/** Queues a sheet's job (once: its id is the sheet's). */
export async function queueSheet(queues: Queues, sheetId: string): Promise<void> {
  await queues.sheets.add('sheet', { sheetId }, { jobId: `${sheetId}.sheet` });
}

/**
 * Queues a sheet's report (once: its id is the sheet's; a failed one may be queued again). Called
 * only where a report is decided due (`report/due.ts`).
 */
export async function queueReport(queues: Queues, sheetId: string): Promise<void> {
  await queues.reports.add(
    'report',
    { sheetId },
    { jobId: `${sheetId}.report`, removeOnFail: true },
  );
}

/**
 * Queues the reading back of one sheet's orders for one run of the refresh: its id names the
 * sheet and the run, so a fleet reads a sheet once a run however many processes fan out.
 */
export async function queueStatus(queues: Queues, sheetId: string, run: string): Promise<void> {
  const safeRun = run.replace(/[^\w-]+/g, '-');
  await queues.status.add(
    'status',
    { sheetId },
    { jobId: `${sheetId}.status.${safeRun}`, removeOnFail: { count: 1000 } },
  );
}

/** Whether the rows queue still holds this row's job (it will then settle the row itself). */
export async function hasRowJob(queues: Queues, sheetId: string, row: number): Promise<boolean> {
  return (await queues.rows.getJob(rowJobId(sheetId, row))) !== undefined;
}
