/**
 * API_RATE_LIMIT across every worker on every host: a shared schedule in Redis (GCRA) that gives
 * each request its own start time, evenly spaced, so a fleet saturates the limit without bursts
 * that would draw 429s. A 429's Retry-After pushes the schedule back for everyone.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Redis } from 'ioredis';

// KEYS: pace. ARGV: now ms, interval ms (may have a fraction). Reserves the next slot and
// returns the whole ms to wait for it. PX takes whole numbers only.
const RESERVE = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
if slot < now then slot = now end
local following = slot + interval
redis.call('SET', KEYS[1], string.format('%.3f', following), 'PX', math.ceil(math.max(1000, following - now + 60000)))
return math.ceil(slot - now)
`;

// KEYS: pace. ARGV: now ms, until ms. Moves the schedule to at least until ms.
const HOLD = `
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = tonumber(ARGV[2])
if slot < untilMs then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', math.ceil(math.max(1000, untilMs - tonumber(ARGV[1]) + 60000)))
end
return 0
`;

type ScriptedRedis = Redis & {
  oiReserve(key: string, now: string, interval: string): Promise<number>;
  oiHold(key: string, now: string, until: string): Promise<number>;
};

export class ApiPace {
  readonly #redis: ScriptedRedis;
  /** ms between two requests; 0 when there is no limit. */
  readonly #interval: number;

  constructor(
    redis: Redis,
    /** The schedule's key: one per connection (keys.ts `apiPace`). */
    private readonly key: string,
    requestsPerMinute: number | undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (!('oiReserve' in redis)) {
      redis.defineCommand('oiReserve', { numberOfKeys: 1, lua: RESERVE });
      redis.defineCommand('oiHold', { numberOfKeys: 1, lua: HOLD });
    }
    this.#redis = redis as ScriptedRedis;
    this.#interval = requestsPerMinute === undefined ? 0 : 60_000 / requestsPerMinute;
  }

  /** Waits for this process's turn to send one request. */
  async turn(signal?: AbortSignal): Promise<void> {
    const wait = await this.#redis.oiReserve(this.key, String(this.now()), String(this.#interval));
    if (wait > 0) await sleep(wait, undefined, { signal });
  }

  /** No request before `ms` from now, for anyone (a Retry-After). */
  async holdFor(ms: number): Promise<void> {
    const now = this.now();
    await this.#redis.oiHold(this.key, String(now), String(now + ms));
  }
}
