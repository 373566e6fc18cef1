import type { RedisTarget } from '../redis/target.js';

/**
 * Every Redis key the importer writes besides BullMQ's own, under one prefix: an office's
 * (`KeyLayout`). The prefix is a hash tag, so on a Redis Cluster an office's keys all live in one
 * slot and the Lua scripts and transactions that touch several may run.
 */
export class Keys {
  /** Under the prefix but apart from BullMQ's `<prefix>:<queue>:…` keys (a queue is named `sheets`). */
  readonly #base: string;

  constructor(readonly prefix: string) {
    this.#base = `${prefix}:importer`;
  }

  /** sha256 of a sheet's bytes → the sheetId that imported it. */
  get bySha(): string {
    return `${this.#base}:by-sha`;
  }

  /** Every sheet by the time it was queued (sorted set), for the dashboard. */
  get allSheets(): string {
    return `${this.#base}:all-sheets`;
  }

  /** Sheets not yet reported, for the reconciler. */
  get activeSheets(): string {
    return `${this.#base}:active-sheets`;
  }

  /**
   * Sheets being purged (app/retention.ts): taken out of `allSheets` first, so no page shows a
   * sheet half removed, and kept here until their last record is gone, so an interrupted purge is
   * finished by the next one (set).
   */
  get purging(): string {
    return `${this.#base}:purging`;
  }

  /**
   * Held while one process of an installation runs watch's daily retention pass
   * (app/retention-pass.ts): the installation's own, so that another installation on the same
   * Redis and prefix runs its pass all the same.
   */
  retentionLock(installation: string): string {
    return `${this.#base}:retention-lock:${installation}`;
  }

  /**
   * Bumped each time a process adds jobs to a queue under this prefix (queue/queues.ts): every
   * process's doorbell reads it each second and looks at its offices' queues when it moved, so
   * that a sheet queued by one process wakes the workers of another (a counter).
   */
  get doorbell(): string {
    return `${this.#base}:doorbell`;
  }

  /** Migrations of stored data done (store/migrations/): number → when (hash). */
  get migrations(): string {
    return `${this.#base}:migrations`;
  }

  /** A sheet's state and counters (hash). */
  sheet(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}`;
  }

  /** Row number → its final result (hash). */
  results(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}:results`;
  }

  /** Rows that reached their final status (set: a row finished twice counts once). */
  final(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}:final`;
  }

  /**
   * A sheet's rows fixed later by a sheet dropped back from its failed/ (fix-links.ts): row number
   * → the fixing sheet's id (hash).
   */
  fixed(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}:fixed`;
  }

  /** The sheets that fixed rows of a sheet: id → how many (hash). */
  fixedBy(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}:fixed-by`;
  }

  /**
   * Row number → where its create and uploads stand (row-progress.ts): no two workers send one
   * row's create, and an answer survives any crash (hash).
   */
  creates(sheetId: string): string {
    return `${this.#base}:sheet:${sheetId}:creates`;
  }

  /**
   * The duplicates ledger as versions before it was compact kept it, for every connection: row
   * key → the order made for it (hash). Read only to carry its entries over (migrations/legacy-scope.ts).
   */
  get ledger(): string {
    return `${this.#base}:ledger`;
  }

  /**
   * A connection's duplicates ledger (store/ledger.ts): this key holds its shape, `<key>:<n>` its
   * shards, `<key>:sheets` the short numbers its entries name sheets by.
   */
  ledgerOf(connectionId: string): string {
    return `${this.#base}:connection:${connectionId}:ledger`;
  }

  /** Every connection that queued or worked here: id → its name and API (JSON, never a token). */
  get connections(): string {
    return `${this.#base}:connections`;
  }

  /** What the hot folder did not take, and why (a capped list, newest first). */
  get notTaken(): string {
    return `${this.#base}:not-taken`;
  }

  /** When a connection's next API request may start, shared by all its workers. */
  apiPace(connectionId: string): string {
    return `${this.#base}:connection:${connectionId}:pace`;
  }

  /**
   * Which installations (data folders, store/installation.ts) use this Redis, and whose ledger
   * is whole here (hash): `<installationId>` → when it first used it; `<installationId>:<connectionId>`
   * → when that connection's ledger was first kept here, or rebuilt (store/redis-marker.ts).
   * Gone while the data folder says it was used: Redis lost its data.
   */
  get installations(): string {
    return `${this.#base}:installations`;
  }

  /** Why a connection's imports had to stop for every row (a refused token), if they did. */
  fatal(connectionId: string): string {
    return `${this.#base}:connection:${connectionId}:fatal`;
  }
}

/**
 * A connection's queues. Each connection has its own, so a worker only ever sees the jobs of the
 * connections it holds a token for: a job of another is not even offered to it.
 */
export function queueNames(connectionId: string): {
  sheets: string;
  rows: string;
  reports: string;
  /** Scheduled scans: a sheet a scan takes is queued for the scanning process's connection. */
  intake: string;
  /** Events told by webhook and e-mail (src/notify/): one job per event and channel. */
  notify: string;
  /** Reading back the orders of reported sheets (src/status/): the scheduled refresh and its jobs. */
  status: string;
} {
  return {
    sheets: `sheets-${connectionId}`,
    rows: `rows-${connectionId}`,
    reports: `reports-${connectionId}`,
    intake: `intake-${connectionId}`,
    notify: `notify-${connectionId}`,
    status: `status-${connectionId}`,
  };
}

/**
 * Where each office's keys and queues are (docs/operations.md "Redis Cluster"). On one server,
 * under the installation's prefix (QUEUE_PREFIX, `{order-importer}`), shared by its offices, as
 * every version kept them: nothing stored moves. On a Cluster, under a hash tag of each office's
 * own, `{order-importer:<connection id>}`: an office's keys and queues share a slot, and offices
 * spread over the shards. What reads across offices reads each key space (`spaces`) and merges.
 */
export class KeyLayout {
  /** `perOffice`: a hash tag per office (a Cluster), else one prefix for all. */
  constructor(
    readonly prefix: string,
    readonly perOffice: boolean,
  ) {}

  /** The layout REDIS_URL asks for: per office on a Cluster (`redis+cluster://`). */
  static of(prefix: string, redis: Pick<RedisTarget, 'kind'>): KeyLayout {
    return new KeyLayout(prefix, redis.kind === 'cluster');
  }

  /** The prefix of an office's keys and of its queues (BullMQ's `prefix`). */
  officePrefix(connectionId: string): string {
    if (!this.perOffice) return this.prefix;
    // The prefix's name inside the office's own tag: one hash tag per key, never two.
    return `{${this.prefix.replace(/[{}]/g, '')}:${connectionId}}`;
  }

  keysOf(connectionId: string): Keys {
    return new Keys(this.officePrefix(connectionId));
  }

  /**
   * The key spaces of some offices, each with the offices whose keys it holds: one for all on a
   * single server, one per office on a Cluster.
   */
  spaces(connectionIds: readonly string[]): KeySpace[] {
    const byPrefix = new Map<string, KeySpace>();
    for (const id of connectionIds) {
      const prefix = this.officePrefix(id);
      const space = byPrefix.get(prefix) ?? { keys: new Keys(prefix), offices: [] };
      space.offices.push(id);
      byPrefix.set(prefix, space);
    }
    return [...byPrefix.values()];
  }
}

/** One prefix's keys, and the offices whose keys are under it. */
export interface KeySpace {
  keys: Keys;
  offices: string[];
}
