/**
 * What the dashboard reads of the imports when it runs alone (`order-importer dashboard`): the
 * sheets' progress and the queues, over Redis, with no worker, no API client and no catalogue.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { connectRedis, pingRedis } from '../redis/connect.js';
import { type AgendaEntry, readAgenda } from './agenda.js';
import { Keys, queueNames } from './keys.js';
import { NotTaken, type NotTakenEntry } from './not-taken.js';
import { recentProgress, type SheetDetail, sheetDetail, type SheetProgress } from './progress.js';
import { SheetStore } from './sheet-store.js';

export interface MonitorConfig {
  redisUrl: string;
  prefix: string;
  logger: Logger;
}

export class ImportsMonitor {
  readonly queues: Queue[];
  readonly #redis: Redis;
  readonly #store: SheetStore;
  readonly #notTaken: NotTaken;
  readonly #logger: Logger;
  readonly #keys: Keys;
  readonly #connectionIds: readonly string[];

  private constructor(config: MonitorConfig, redis: Redis, connectionIds: readonly string[]) {
    this.#redis = redis;
    this.#logger = config.logger;
    const keys = new Keys(config.prefix);
    this.#keys = keys;
    this.#connectionIds = connectionIds;
    this.#store = new SheetStore(redis, keys);
    this.#notTaken = new NotTaken(redis, keys);
    // BullMQ wants connections that wait for Redis rather than fail a command.
    const connection = { url: config.redisUrl, maxRetriesPerRequest: null };
    this.queues = connectionIds.flatMap((id) =>
      Object.values(queueNames(id)).map(
        (name) => new Queue(name, { connection, prefix: config.prefix }),
      ),
    );
  }

  /**
   * Connects to Redis (failing with the URL, never a password, when nothing answers) and opens
   * the queues of every connection known there.
   */
  static async connect(config: MonitorConfig): Promise<ImportsMonitor> {
    const redis = await connectRedis(config.redisUrl);
    const ids = await redis.hkeys(new Keys(config.prefix).connections);
    // Ids become queue names: anything else found there is not one of ours.
    return new ImportsMonitor(
      config,
      redis,
      ids.filter((id) => /^[0-9a-f]{16}$/.test(id)),
    );
  }

  /** The inspections the status stage kept for the agenda, of every connection known here. */
  agenda(): Promise<AgendaEntry[]> {
    return readAgenda(this.#redis, this.#keys, this.#connectionIds);
  }

  /** The latest sheets, newest first. */
  overview(limit = 200): Promise<SheetProgress[]> {
    return recentProgress(this.#store, limit);
  }

  /** One sheet with its warnings; undefined for a sheet not known here. */
  sheet(sheetId: string): Promise<SheetDetail | undefined> {
    return sheetDetail(this.#store, sheetId);
  }

  /** The results of the rows of sheets not reported yet. */
  get results(): Pick<SheetStore, 'outcomes' | 'scanOutcomes'> {
    return this.#store;
  }

  /** What the hot folders did not take, and why, newest first. */
  notTaken(): Promise<NotTakenEntry[]> {
    return this.#notTaken.recent();
  }

  redisAnswers(): Promise<boolean> {
    return pingRedis(this.#redis, this.#logger);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
    this.#redis.disconnect();
  }
}
