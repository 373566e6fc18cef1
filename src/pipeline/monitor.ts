/**
 * What the dashboard reads of the imports when it runs alone (`order-importer dashboard`): the
 * sheets' progress and the queues, over Redis, with no worker, no API client and no catalogue.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { connectRedis, pingRedis } from '../redis/connect.js';
import { Keys } from './keys.js';
import { recentProgress, type SheetProgress } from './progress.js';
import { QUEUES } from './runtime.js';
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
  readonly #logger: Logger;

  private constructor(config: MonitorConfig, redis: Redis) {
    this.#redis = redis;
    this.#logger = config.logger;
    this.#store = new SheetStore(redis, new Keys(config.prefix));
    // BullMQ wants connections that wait for Redis rather than fail a command.
    const connection = { url: config.redisUrl, maxRetriesPerRequest: null };
    this.queues = Object.values(QUEUES).map(
      (name) => new Queue(name, { connection, prefix: config.prefix }),
    );
  }

  /** Connects to Redis; fails (with the URL, never a password) when nothing answers. */
  static async connect(config: MonitorConfig): Promise<ImportsMonitor> {
    return new ImportsMonitor(config, await connectRedis(config.redisUrl));
  }

  /** The latest sheets, newest first. */
  overview(limit = 200): Promise<SheetProgress[]> {
    return recentProgress(this.#store, limit);
  }

  redisAnswers(): Promise<boolean> {
    return pingRedis(this.#redis, this.#logger);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
    this.#redis.disconnect();
  }
}
