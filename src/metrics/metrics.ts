/**
 * The process's metrics (`GET /metrics`, Prometheus text): one Registry per process, made by
 * the assembly (src/app/) and carried in each context, never a module-level one, so that tests
 * and the several connections of one process count side by side. Counters count what this
 * process did since it started. Label values stay bounded: connection names, statuses, templated
 * routes, status codes or error classes; never a sheet id, a row number, an order id or a query.
 */
import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { QUEUE_COUNTS_FRESH_MS, QUEUE_COUNTS_WAIT_MS } from '../policy.js';

/** One API request as the client saw it (src/api/client.ts calls its observers with it). */
export interface ApiRequestSeen {
  method: string;
  /** The documented path with its ids as `{id}`: `/api/orders/{id}`, `/api/files/`. */
  route: string;
  /** The HTTP status, or why no answer came: `timeout`, `ECONNRESET`, `aborted`… */
  code: string;
  seconds: number;
}

/** What a sheet came to, as counted by `order_importer_sheets_total`. */
export type SheetState = 'queued' | 'reported' | 'unreadable' | 'refused';

/** One queue's job counts by state, as BullMQ's `getJobCounts` gives them, named for people. */
export interface QueueCount {
  /** The office's name (`gent`), as the other metrics' `connection`. */
  connection: string;
  /** The queue's kind (`rows`, `sheets`, …), not its name in Redis (which holds a hash). */
  queue: string;
  states: Record<string, number>;
}

/** Reads queues' counts. */
type QueueCounts = () => Promise<QueueCount[]>;

/** Answers that only come once the token is taken (a 404 for an order that is not there too). */
const TOKEN_TAKEN = /^(2\d\d|404|422)$/;

const METRIC_NAMES = {
  rows: 'order_importer_rows_total',
  sheets: 'order_importer_sheets_total',
  apiRequests: 'order_importer_api_requests_total',
  apiDuration: 'order_importer_api_request_duration_seconds',
  queueJobs: 'order_importer_queue_jobs',
} as const;

export class Metrics {
  readonly registry = new Registry();
  readonly #rows: Counter<'connection' | 'status'>;
  readonly #sheets: Counter<'connection' | 'state'>;
  readonly #requests: Counter<'connection' | 'method' | 'route' | 'code'>;
  readonly #durations: Histogram<'connection' | 'method' | 'route'>;
  readonly #queues = new Set<QueueCounts>();
  /** Per connection, the status of a refused token (401, 403) until an answer takes it again. */
  readonly #refused = new Map<string, string>();
  readonly #observers = new Map<string, (seen: ApiRequestSeen) => void>();
  readonly #now: () => number;
  #counted: { at: number; counts: QueueCount[] } | undefined;
  #counting: Promise<void> | undefined;

  constructor(options: { now?: () => number; defaultMetrics?: boolean } = {}) {
    this.#now = options.now ?? Date.now;
    const registers = [this.registry];
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.#rows = new Counter({
      name: METRIC_NAMES.rows,
      help: 'Rows that became final in this process, by their status.',
      labelNames: ['connection', 'status'],
      registers,
    });
    this.#sheets = new Counter({
      name: METRIC_NAMES.sheets,
      help: 'Sheets this process queued, reported, found unreadable or refused.',
      labelNames: ['connection', 'state'],
      registers,
    });
    this.#requests = new Counter({
      name: METRIC_NAMES.apiRequests,
      help: 'Requests this process sent to the Order and File Service, by route and answer (a status, or why none came).',
      labelNames: ['connection', 'method', 'route', 'code'],
      registers,
    });
    this.#durations = new Histogram({
      name: METRIC_NAMES.apiDuration,
      help: 'Time from sending a request to its answer (or to its failure), in seconds.',
      labelNames: ['connection', 'method', 'route'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    const counts = () => this.#queueCounts();
    new Gauge({
      name: METRIC_NAMES.queueJobs,
      help: 'Jobs in each queue by state, read from Redis when scraped (reused for a moment).',
      labelNames: ['connection', 'queue', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const { connection, queue, states } of await counts())
          for (const [state, n] of Object.entries(states))
            this.set({ connection, queue, state }, n);
      },
    });
  }

  rowsFinal(connection: string, statuses: readonly string[]): void {
    for (const status of statuses) this.#rows.inc({ connection, status });
  }

  sheet(connection: string, state: SheetState): void {
    this.#sheets.inc({ connection, state });
  }

  /**
   * What the API client of `connection` calls with every request it made: the same function
   * each time it is asked, so that a client given it twice (at its check at start, then by its
   * context) counts each request once.
   */
  apiObserver(connection: string): (seen: ApiRequestSeen) => void {
    let observer = this.#observers.get(connection);
    if (observer === undefined) {
      observer = this.#observe(connection);
      this.#observers.set(connection, observer);
    }
    return observer;
  }

  #observe(connection: string): (seen: ApiRequestSeen) => void {
    return ({ method, route, code, seconds }) => {
      this.#requests.inc({ connection, method, route, code });
      this.#durations.observe({ connection, method, route }, seconds);
      if (code === '401' || code === '403') this.#refused.set(connection, code);
      else if (TOKEN_TAKEN.test(code)) this.#refused.delete(connection);
    };
  }

  /** The status with which the API last refused `connection`'s token, if it has not taken it since. */
  refusedToken(connection: string): string | undefined {
    return this.#refused.get(connection);
  }

  /** Adds where queue counts are read at a scrape; returns what removes it. */
  watchQueues(counts: QueueCounts): () => void {
    this.#queues.add(counts);
    this.#counted = undefined;
    return () => {
      this.#queues.delete(counts);
      this.#counted = undefined;
    };
  }

  /** The Prometheus text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The queues' counts: fresh ones when read within the last moment, else read again; a Redis
   * that does not answer in time leaves the last ones known (none at first), never a hung scrape.
   */
  async #queueCounts(): Promise<QueueCount[]> {
    const counted = this.#counted;
    if (counted && this.#now() - counted.at < QUEUE_COUNTS_FRESH_MS) return counted.counts;
    this.#counting ??= this.#readQueues().finally(() => {
      this.#counting = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, QUEUE_COUNTS_WAIT_MS);
    });
    await Promise.race([this.#counting, late]);
    clearTimeout(timer);
    return this.#counted?.counts ?? [];
  }

  async #readQueues(): Promise<void> {
    const all: QueueCount[] = [];
    try {
      for (const counts of this.#queues) all.push(...(await counts()));
    } catch (error) {
      // Redis away: the scrape answers the last counts known; /healthz says Redis is down.
      if (!(error instanceof Error)) throw error;
      return;
    }
    this.#counted = { at: this.#now(), counts: all };
  }
}

/** `order_importer_queue_jobs`: BullMQ's own counts of each queue's jobs, by state. */
const STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
  'completed',
] as const;

/**
 * Reads the jobs by state of one office's queues (`queues` by kind), each labelled with the
 * office's name and the queue's kind: a person reads `connection="gent",queue="rows"`, not a hash.
 */
export function queueCountsOf(
  connection: string,
  queues: Readonly<Record<string, Queue>>,
): QueueCounts {
  return () =>
    Promise.all(
      Object.entries(queues).map(async ([queue, q]) => ({
        connection,
        queue,
        states: await q.getJobCounts(...STATES),
      })),
    );
}
