/**
 * The hot folder's "sheets not taken": what it refused (a linked sheet, folder or attachment)
 * or could not read, and why, for the dashboard. A short list in Redis, newest first and capped,
 * so that it tells what happened lately and never grows.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';

import type { Keys } from './keys.js';

const entrySchema = z.object({ path: z.string(), reason: z.string(), at: z.string() });
export type NotTakenEntry = z.infer<typeof entrySchema>;

export class NotTaken {
  readonly #keep: number;
  readonly #now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    options: { keep?: number; now?: () => number } = {},
  ) {
    this.#keep = options.keep ?? 200;
    this.#now = options.now ?? Date.now;
  }

  async add(path: string, reason: string): Promise<void> {
    const entry: NotTakenEntry = { path, reason, at: new Date(this.#now()).toISOString() };
    await this.redis
      .multi()
      .lpush(this.keys.notTaken, JSON.stringify(entry))
      .ltrim(this.keys.notTaken, 0, this.#keep - 1)
      .exec();
  }

  /** The latest entries, newest first; one that cannot be read is left out. */
  async recent(limit = 50): Promise<NotTakenEntry[]> {
    const raw = await this.redis.lrange(this.keys.notTaken, 0, Math.max(0, limit - 1));
    return raw.flatMap((text) => {
      const parsed = entrySchema.safeParse(parseJson(text));
      return parsed.success ? [parsed.data] : [];
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
