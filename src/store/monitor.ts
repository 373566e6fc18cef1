/**
 * What the dashboard reads of the imports when it runs alone (`order-importer dashboard`): the
 * sheets' progress and the queues, over Redis, with no worker, no API client and no catalogue.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { bullmqOptions, connectRedis, pingRedis, type RedisTarget } from '../redis/connect.js';
import { type AgendaEntry, readAgenda } from './agenda.js';
import { Keys, queueNames } from './keys.js';
import { NotTaken, type NotTakenEntry } from './not-taken.js';
import { recentProgress, type SheetDetail, sheetDetail, type SheetProgress } from './progress.js';
import { SheetStore } from './sheet-store.js';

export interface MonitorConfig {
  /** Where Redis is: its queues' connections and its client are made from it. */
  redis: RedisTarget;
  prefix: string;
  logger: Logger;
  /**
   * The connections of this configuration (docs/design.md "One installation, one namespace"):
   * only their sheets, sheets not taken and queues are read, whatever else shares the Redis.
   */
  offices: readonly MonitoredOffice[];
}

/** An office of the configuration: its connection's id (a hash) and name. */
export interface MonitoredOffice {
  id: string;
  name: string;
}

/** An office's queues, by kind (`rows`, `sheets`, …). */
export interface OfficeQueues {
  office: MonitoredOffice;
  queues: Record<string, Queue>;
}

export class ImportsMonitor {
  /** Every queue of the offices. */
  readonly queues: Queue[];
  readonly byOffice: OfficeQueues[];
  readonly #redis: Redis;
  readonly #store: SheetStore;
  readonly #notTaken: NotTaken;
  readonly #logger: Logger;
  readonly #own: ReadonlySet<string>;
  readonly #keys: Keys;

  private constructor(config: MonitorConfig, redis: Redis) {
    this.#redis = redis;
    this.#logger = config.logger;
    const keys = new Keys(config.prefix);
    this.#keys = keys;
    this.#store = new SheetStore(redis, keys);
    this.#notTaken = new NotTaken(redis, keys);
    this.#own = new Set(config.offices.map((office) => office.id));
    const connection = bullmqOptions(config.redis);
    this.byOffice = config.offices.map((office) => ({
      office,
      queues: Object.fromEntries(
        Object.entries(queueNames(office.id)).map(([kind, name]) => [
          kind,
          new Queue(name, { connection, prefix: config.prefix }),
        ]),
      ),
    }));
    this.queues = this.byOffice.flatMap((office) => Object.values(office.queues));
  }

  /**
   * Connects to Redis (failing with the URL, never a password, when nothing answers) and opens
   * the queues of the configuration's offices.
   */
  static async connect(config: MonitorConfig): Promise<ImportsMonitor> {
    const redis = await connectRedis(config.redis);
    return new ImportsMonitor(config, redis);
  }

  /** The inspections the status stage kept for the agenda, of the offices. */
  agenda(): Promise<AgendaEntry[]> {
    return readAgenda(this.#redis, this.#keys, [...this.#own]);
  }

  /** The latest sheets of the offices, newest first. */
  overview(limit = 200): Promise<SheetProgress[]> {
    return recentProgress(this.#store, limit, this.#own);
  }

  /** One sheet of the offices with its warnings; undefined for a sheet not known here. */
  async sheet(sheetId: string): Promise<SheetDetail | undefined> {
    const sheet = await sheetDetail(this.#store, sheetId);
    const own = sheet?.connectionId !== undefined && this.#own.has(sheet.connectionId);
    return own ? sheet : undefined;
  }

  /** The results of the rows of sheets not reported yet. */
  get results(): Pick<SheetStore, 'outcomes' | 'scanOutcomes'> {
    return this.#store;
  }

  /** What the offices' hot folders did not take, and why, newest first. */
  notTaken(): Promise<NotTakenEntry[]> {
    return this.#notTaken.recent(undefined, this.#own);
  }

  redisAnswers(): Promise<boolean> {
    return pingRedis(this.#redis, this.#logger);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
    this.#redis.disconnect();
  }
}
