/**
 * The API's rate limit across every worker on every host: a shared schedule in Redis (GCRA) that
 * gives each request its own start time, evenly spaced, so a fleet saturates the limit without
 * bursts that would draw 429s. The spacing is API_RATE_LIMIT's when it is set (and nothing else
 * but a 429's Retry-After moves it); otherwise it is learned from the answers' X-RateLimit-*
 * headers (rate-headers.ts), the same for the whole fleet.
 * An answer whose Remaining is 0 holds everyone until its window resets; a 429 holds everyone
 * until its Retry-After / X-RateLimit-Reset. An API that advertises nothing is paced by 429s.
 * Laravel says when a window resets only on a 429: until a window has been seen to end, one spent
 * is waited for as long as it lasted, and then a single request goes to learn its end (at worst
 * one 429, once).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { advertisedLimit, type AdvertisedLimit, type ApiAnswer } from '../api/rate-headers.js';
import { LEARN, RESERVE } from './pace-scripts.js';

/**
 * Laravel's default throttle window (one minute): while a window's length is not known yet, one
 * that lasts longer is taken to be over (should the answers that would say so be lost).
 */
export const DEFAULT_WINDOW_MS = 60_000;
/** Learned spacing is this much wider than the limit allows: the API counts by whole seconds. */
export const LEARNED_MARGIN = 1.02;

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
  oiReserve(
    slot: string,
    learned: string,
    sent: string,
    now: string,
    interval: string,
    margin: string,
    defaultWindow: string,
  ): Promise<number>;
  oiHold(key: string, now: string, until: string): Promise<number>;
  oiLearn(
    slot: string,
    learned: string,
    ...args: [
      now: string,
      limit: string,
      remaining: string,
      resetAt: string,
      sentAt: string,
      defaultWindow: string,
    ]
  ): Promise<[number, number]>;
};

/** What LEARN says changed: 1 a new limit, 2 the window's length first known. */
const NEW_LIMIT = 1;
const WINDOW_KNOWN = 2;

export class ApiPace {
  readonly #redis: ScriptedRedis;
  /** ms between two requests when API_RATE_LIMIT is set; undefined to learn it. */
  readonly #interval: number | undefined;
  readonly #learnedKey: string;
  readonly #now: () => number;
  readonly #logger: Logger | undefined;
  /** What this process last heard of the shared learning, to skip answers that teach nothing. */
  #known: { limit: number; windowKnown: boolean } = { limit: 0, windowKnown: false };
  /** The Remaining this process heard last, and when. */
  #lastHeard = { remaining: Infinity, at: 0 };
  /** Learning under way: a turn waits for it, so that a Remaining of 0 is seen before the next. */
  readonly #learning = new Set<Promise<void>>();

  constructor(
    redis: Redis,
    /** The schedule's key: one per connection (keys.ts `apiPace`). */
    private readonly key: string,
    requestsPerMinute: number | undefined,
    options: { now?: () => number; logger?: Logger } = {},
  ) {
    if (!('oiLearn' in redis)) {
      redis.defineCommand('oiReserve', { numberOfKeys: 3, lua: RESERVE });
      redis.defineCommand('oiHold', { numberOfKeys: 1, lua: HOLD });
      redis.defineCommand('oiLearn', { numberOfKeys: 2, lua: LEARN });
    }
    this.#redis = redis as ScriptedRedis;
    this.#interval = requestsPerMinute === undefined ? undefined : 60_000 / requestsPerMinute;
    this.#learnedKey = `${key}:learned`;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
  }

  /** Resolves once what this process has heard so far is recorded for the fleet. */
  async untilLearned(): Promise<void> {
    if (this.#learning.size > 0) await Promise.all(this.#learning);
  }

  /**
   * Reserves the next slot for one request: the ms to wait for it; negative when no slot can
   * be given yet (a window being learned is all promised), to ask again after that many ms.
   */
  async reserve(): Promise<number> {
    await this.untilLearned();
    return this.#redis.oiReserve(
      this.key,
      this.#learnedKey,
      `${this.key}:sent`,
      String(this.#now()),
      this.#interval === undefined ? '' : String(this.#interval),
      String(LEARNED_MARGIN),
      String(DEFAULT_WINDOW_MS),
    );
  }

  /**
   * Whether a turn is free now without waiting and without asking Redis, so that a step may
   * count on the request after it leaving at once.
   */
  freeNow(): boolean {
    return false;
  }

  /** Waits for this process's turn to send one request. */
  async turn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = await this.reserve();
      if (wait === 0) return;
      await sleep(Math.abs(wait), undefined, { signal });
      // A slot given before a Remaining of 0 was heard (by any process) is not used: it waits
      // for the window's end like the rest.
      if (wait > 0 && (this.#interval !== undefined || !(await this.#spent()))) return;
    }
  }

  /** Whether the API said the current window is spent, and it has not ended yet. */
  async #spent(): Promise<boolean> {
    await this.untilLearned();
    const over = Number((await this.#redis.hget(this.#learnedKey, 'over')) ?? 0);
    return over > this.#now();
  }

  /** No request before `ms` from now, for anyone (a Retry-After). */
  async holdFor(ms: number): Promise<void> {
    const now = this.#now();
    await this.#redis.oiHold(this.key, String(now), String(now + ms));
  }

  /**
   * Learns from one answer of the API (the client's `onAnswer`). Never throws: a lost lesson
   * costs at most a 429, which is obeyed as well.
   */
  learn(answer: ApiAnswer): void {
    // API_RATE_LIMIT's spacing is the user's word: it is kept as it is, 429s aside (holdFor).
    if (this.#interval !== undefined) return;
    const advertised = advertisedLimit(answer);
    if (advertised === undefined || !this.#teaches(advertised, answer)) return;
    const lesson = this.#learnFrom(advertised, answer).catch((error: unknown) => {
      this.#logger?.warn({ err: error }, 'the API rate limit could not be recorded in Redis');
    });
    this.#learning.add(lesson);
    void lesson.finally(() => this.#learning.delete(lesson));
  }

  /** Records what an answer advertised, for the whole fleet; says a new limit once. */
  async #learnFrom(
    advertised: AdvertisedLimit,
    { sentAt, receivedAt }: Pick<ApiAnswer, 'sentAt' | 'receivedAt'>,
  ): Promise<void> {
    const [told, windowMs] = await this.#redis.oiLearn(
      this.key,
      this.#learnedKey,
      String(receivedAt),
      String(advertised.limit),
      String(advertised.remaining),
      advertised.resetAt === undefined ? '' : String(advertised.resetAt),
      String(sentAt),
      String(DEFAULT_WINDOW_MS),
    );
    this.#known = { limit: advertised.limit, windowKnown: windowMs > 0 };
    const window = windowMs > 0 ? { windowMs } : {};
    if (told === NEW_LIMIT)
      this.#logger?.info(
        { limit: advertised.limit, ...window },
        `the API allows ${advertised.limit} requests per window (X-RateLimit-Limit)`,
      );
    else if (told === WINDOW_KNOWN)
      this.#logger?.info(
        { limit: advertised.limit, windowMs },
        `the API's rate-limit window is about ${(windowMs / 1000).toFixed(1)} s`,
      );
  }

  /**
   * Only answers that change something go to Redis: a new limit, a window's first answer or its
   * last, more left than this process heard before sending (a window begun unheard), a 429,
   * and every answer while the window's length is unknown.
   */
  #teaches(advertised: AdvertisedLimit, answer: ApiAnswer): boolean {
    const { limit, windowKnown } = this.#known;
    const last = this.#lastHeard;
    this.#lastHeard = { remaining: advertised.remaining, at: answer.receivedAt };
    return (
      answer.status === 429 ||
      !windowKnown ||
      advertised.limit !== limit ||
      advertised.remaining === 0 ||
      advertised.remaining === advertised.limit - 1 ||
      (advertised.remaining > last.remaining && answer.sentAt > last.at)
    );
  }
}
