/**
 * The hot folder's "sheets not taken": what it refused (a linked sheet, folder or attachment)
 * or could not read, and why, for the dashboard. A short list in Redis, newest first and capped,
 * so that it tells what happened lately and never grows.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';

import type { Keys } from './keys.js';

const entrySchema = z.object({
  path: z.string(),
  reason: z.string(),
  at: z.string(),
  /** The connection whose intake did not take it: the dashboard shows only its installation's. */
  connectionId: z.string().optional(),
});
export type NotTakenEntry = z.infer<typeof entrySchema>;

/**
 * Removes the entries of a path (ARGV[1]), then pushes a new one (ARGV[2], unless empty) and
 * keeps the newest ARGV[3]: a path is listed once, with what was last said of it. The list is
 * short (a few hundred entries), so it is read whole.
 */
const REPLACE = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for _, item in ipairs(items) do
  local ok, entry = pcall(cjson.decode, item)
  if ok and type(entry) == 'table' and entry.path == ARGV[1] then
    redis.call('LREM', KEYS[1], 0, item)
  end
end
if ARGV[2] ~= '' then
  redis.call('LPUSH', KEYS[1], ARGV[2])
  redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1)
end
return 1
`;

export class NotTaken {
  readonly #keep: number;
  readonly #now: () => number;
  readonly #connectionId: string | undefined;

  /** `connectionId`: the connection whose intake adds entries (none: a reader's list). */
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    options: { keep?: number; now?: () => number; connectionId?: string } = {},
  ) {
    this.#keep = options.keep ?? 200;
    this.#now = options.now ?? Date.now;
    this.#connectionId = options.connectionId;
  }

  /** Says why `path` is not taken, in place of what was said of it before. */
  async add(path: string, reason: string): Promise<void> {
    const entry: NotTakenEntry = {
      path,
      reason,
      at: new Date(this.#now()).toISOString(),
      ...(this.#connectionId !== undefined && { connectionId: this.#connectionId }),
    };
    await this.redis.eval(REPLACE, 1, this.keys.notTaken, path, JSON.stringify(entry), this.#keep);
  }

  /** A sheet at `path` was taken after all (fixed, or moved where it belongs): no longer listed. */
  async taken(path: string): Promise<void> {
    await this.redis.eval(REPLACE, 1, this.keys.notTaken, path, '', this.#keep);
  }

  /**
   * The latest entries, newest first; one that cannot be read is left out. Given `connections`,
   * only theirs (an installation's own), from the whole list: it is short (capped).
   */
  async recent(limit = 50, connections?: ReadonlySet<string>): Promise<NotTakenEntry[]> {
    const last = connections === undefined ? Math.max(0, limit - 1) : -1;
    const raw = await this.redis.lrange(this.keys.notTaken, 0, last);
    const entries = raw.flatMap((text) => {
      const parsed = entrySchema.safeParse(parseJson(text));
      return parsed.success ? [parsed.data] : [];
    });
    if (connections === undefined) return entries;
    const own = ({ connectionId: id }: NotTakenEntry) => id !== undefined && connections.has(id);
    return entries.filter(own).slice(0, limit);
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
