/**
 * The notifications told of the sheets a purge removes (notify/sheet-notifications.ts): read once
 * per purge from each office's notify queue, removed with each sheet before its records go (a
 * purge cut short after its records finds no sheet to name them by).
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

import { finishedNotificationsOf, forgetNotifications } from '../notify/sheet-notifications.js';
import { type Keys, queueNames } from '../store/keys.js';
import type { PurgeCandidate } from '../store/sheet-purge.js';

export class SheetNotifications {
  private constructor(
    private readonly queues: ReadonlyMap<string, Queue>,
    private readonly found: ReadonlyMap<string, string[]>,
  ) {}

  /** The finished notifications of `sheets`, on the purge's own Redis connection. */
  static async of(
    store: { redis: Redis; keys: Keys },
    sheets: readonly PurgeCandidate[],
  ): Promise<SheetNotifications> {
    const queues = new Map<string, Queue>();
    const found = new Map<string, string[]>();
    try {
      for (const connectionId of new Set(sheets.map((sheet) => sheet.connectionId))) {
        const queue = new Queue(queueNames(connectionId).notify, {
          connection: store.redis,
          prefix: store.keys.prefix,
        });
        queues.set(connectionId, queue);
        const ids = new Set(
          sheets.filter((s) => s.connectionId === connectionId).map((s) => s.sheetId),
        );
        for (const [sheetId, jobs] of await finishedNotificationsOf(queue, ids))
          found.set(sheetId, jobs);
      }
    } catch (error) {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      throw error;
    }
    return new SheetNotifications(queues, found);
  }

  /** Removes the sheet's notifications (counts them, for a dry run); how many. */
  async forget(sheet: Pick<PurgeCandidate, 'sheetId' | 'connectionId'>, dryRun: boolean) {
    const jobs = this.found.get(sheet.sheetId) ?? [];
    const queue = this.queues.get(sheet.connectionId);
    if (dryRun || queue === undefined) return jobs.length;
    return forgetNotifications(queue, jobs);
  }

  /** Closes the queues; the Redis connection they share stays the purge's. */
  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
