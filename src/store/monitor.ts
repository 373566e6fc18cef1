/**
 * What the dashboard reads of the imports when it runs alone (`order-importer dashboard`): the
 * sheets' progress and the queues, over Redis, with no worker, no API client and no catalogue.
 */
import { Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

import {
  bullClusterClient,
  bullmqOptions,
  connectRedis,
  pingRedis,
  type RedisTarget,
} from '../redis/connect.js';
import type { AgendaEntry } from './agenda.js';
import { KeyLayout, queueNames } from './keys.js';
import type { NotTakenEntry } from './not-taken.js';
import { officeSpaces, OfficesView } from './offices.js';
import type { SheetDetail, SheetProgress } from './progress.js';
import type { SheetStore } from './sheet-store.js';

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
  readonly #logger: Logger;
  /** Every office's keys, read in each key space (one on a server, one per office on a Cluster). */
  readonly #view: OfficesView;
  /** On a Cluster, the client the queues share (BullMQ cannot make one from options). */
  readonly #bullClient: Cluster | undefined;

  private constructor(config: MonitorConfig, redis: Redis) {
    this.#redis = redis;
    this.#logger = config.logger;
    const layout = KeyLayout.of(config.prefix, config.redis);
    this.#view = new OfficesView(
      officeSpaces(redis, layout.spaces(config.offices.map((office) => office.id))),
    );
    const { redis: target } = config;
    this.#bullClient = target.kind === 'cluster' ? bullClusterClient(target) : undefined;
    const connection = this.#bullClient ?? bullmqOptions(target);
    this.byOffice = config.offices.map((office) => ({
      office,
      queues: Object.fromEntries(
        Object.entries(queueNames(office.id)).map(([kind, name]) => [
          kind,
          new Queue(name, { connection, prefix: layout.officePrefix(office.id) }),
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
    return this.#view.agenda();
  }

  /** The latest sheets of the offices, newest first. */
  overview(limit = 200): Promise<SheetProgress[]> {
    return this.#view.overview(limit);
  }

  /** One sheet of the offices with its warnings; undefined for a sheet not known here. */
  async sheet(sheetId: string): Promise<SheetDetail | undefined> {
    const sheet = await this.#view.sheet(sheetId);
    const own = sheet?.connectionId !== undefined && this.#view.owns(sheet.connectionId);
    return own ? sheet : undefined;
  }

  /** The results of the rows of sheets not reported yet. */
  get results(): Pick<SheetStore, 'outcomes' | 'scanOutcomes'> {
    return this.#view.results;
  }

  /** What the offices' hot folders did not take, and why, newest first. */
  notTaken(): Promise<NotTakenEntry[]> {
    return this.#view.notTaken();
  }

  redisAnswers(): Promise<boolean> {
    return pingRedis(this.#redis, this.#logger);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
    this.#redis.disconnect();
    this.#bullClient?.disconnect();
  }
}
