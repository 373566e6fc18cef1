/**
 * The API's rate limit across every worker on every host: a shared schedule in Redis (GCRA) that
 * gives each request its own start time, evenly spaced, so a fleet saturates the limit without
 * bursts that would draw 429s. The spacing is API_RATE_LIMIT's when it is set (and nothing else
 * but a 429's Retry-After moves it); otherwise it is learned from the answers' X-RateLimit-*
 * headers (rate-headers.ts), the same for the whole fleet (pace-scripts.ts says how).
 * An answer whose Remaining is 0 holds everyone until its window ends; a 429 holds everyone
 * until its Retry-After / X-RateLimit-Reset. An API that advertises nothing is paced by 429s.
 * Laravel says when a window ends only on a 429: the first window is used as it comes, then a
 * single request learns its end (one 429, once); from then on the fleet is spaced by the
 * window's length, which the time between two windows' first requests narrows down.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { advertisedLimit, type ApiAnswer, resetTime } from '../api/rate-headers.js';
import { HOLD, LEARN, PEEK, RELEASE, RESERVE } from './pace-scripts.js';
import { API_MAX_WAIT_MS, PACE_FIRST_ANSWER_MS, PACE_PEEK_MS } from '../policy.js';

/** Learned spacing is this much wider than the limit allows: the API counts by whole seconds. */
export const LEARNED_MARGIN = 1.02;

type ScriptedRedis = Redis & {
  // Keys first, then arguments (defineCommand's numberOfKeys).
  oiReserve(...keysAndArgs: string[]): Promise<[number, string]>;
  oiRelease(learned: string, flight: string, member: string): Promise<number>;
  oiHold(...keysAndArgs: string[]): Promise<number>;
  oiLearn(...keysAndArgs: string[]): Promise<[number, number, number]>;
  oiPeek(...keysAndArgs: string[]): Promise<[number, number, number]>;
};

/** What LEARN says changed: 1 a new limit, 2 the window's length first known. */
const NEW_LIMIT = 1;
const WINDOW_KNOWN = 2;

/** What a process that reserves no slot knows of the fleet's pace, and since when. */
interface Peeked {
  at: number;
  /** No request before this (this process's clock). */
  holdUntil: number;
}

export class ApiPace {
  readonly #redis: ScriptedRedis;
  /** ms between two requests when API_RATE_LIMIT is set; undefined to learn it. */
  readonly #interval: number | undefined;
  readonly #keys: { schedule: string; learned: string; flight: string };
  readonly #now: () => number;
  /** '1': the scripts keep time by the Redis server's clock; '' by `now` (a test's clock). */
  readonly #clock: '1' | '';
  readonly #logger: Logger | undefined;
  /** A limit heard, by this process or in Redis: every request takes a slot of the schedule. */
  #limited: boolean;
  #peeked: Peeked = { at: -Infinity, holdUntil: 0 };
  /** Resolved by the first answer this process hears (none until then when it learns). */
  #firstAnswer: { heard: Promise<void>; resolve: () => void } | undefined;
  /**
   * Turns given while no limit was known whose answer has not come yet: they spend a window
   * too, and are counted on their way with this process's first lesson.
   */
  #unanswered = 0;
  #peeking: Promise<void> | undefined;
  /** Learning under way: a turn waits for it, so that a Remaining of 0 is seen before the next. */
  readonly #learning = new Set<Promise<void>>();
  /** Lessons on their way to Redis of answers that said a window was spent (Remaining 0). */
  readonly #spending = new Set<Promise<void>>();

  constructor(
    redis: Redis,
    /** The schedule's key: one per connection (keys.ts `apiPace`). */
    key: string,
    requestsPerMinute: number | undefined,
    /**
     * `now`: this process's clock (the API client's: answers are timed by it), Date.now by
     * default. `clock: 'local'` makes the scripts keep time by it too, instead of the Redis
     * server's (a test's own clock).
     */
    options: { now?: () => number; clock?: 'redis' | 'local'; logger?: Logger } = {},
  ) {
    if (!('oiPeek' in redis)) {
      redis.defineCommand('oiReserve', { numberOfKeys: 3, lua: RESERVE });
      redis.defineCommand('oiHold', { numberOfKeys: 2, lua: HOLD });
      redis.defineCommand('oiLearn', { numberOfKeys: 3, lua: LEARN });
      redis.defineCommand('oiPeek', { numberOfKeys: 2, lua: PEEK });
      redis.defineCommand('oiRelease', { numberOfKeys: 2, lua: RELEASE });
    }
    this.#redis = redis as ScriptedRedis;
    this.#interval = requestsPerMinute === undefined ? undefined : 60_000 / requestsPerMinute;
    this.#limited = this.#interval !== undefined;
    if (!this.#limited) {
      let resolve = () => {};
      const heard = new Promise<void>((done) => (resolve = done));
      this.#firstAnswer = { heard, resolve };
    }
    this.#keys = { schedule: key, learned: `${key}:learned`, flight: `${key}:flight` };
    this.#now = options.now ?? Date.now;
    this.#clock = options.clock === 'local' ? '' : '1';
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
    return (await this.#reserveSlot()).wait;
  }

  /** A slot, and its member among the requests on their way ('' when not counted there). */
  async #reserveSlot(): Promise<{ wait: number; member: string }> {
    await this.untilLearned();
    const { schedule, learned, flight } = this.#keys;
    const [wait, member] = await this.#redis.oiReserve(
      schedule,
      learned,
      flight,
      String(this.#now()),
      this.#clock,
      this.#interval === undefined ? '' : String(this.#interval),
      String(LEARNED_MARGIN),
    );
    return { wait, member };
  }

  /**
   * Whether a turn would be given now without waiting and without asking Redis (no limit known,
   * no hold, the fleet's pace peeked lately, this process's first answer heard or not awaited):
   * a step may then count on the request after it leaving at once.
   */
  freeNow(): boolean {
    if (this.#limited) return false;
    const now = this.#now();
    return (
      now - this.#peeked.at < PACE_PEEK_MS &&
      this.#peeked.holdUntil <= now &&
      !(this.#firstAnswer && this.#unanswered > 0)
    );
  }

  /** Takes such a turn when there is one (as `turn` would give it): the request goes at once. */
  takeFreeTurn(): boolean {
    if (!this.freeNow()) return false;
    this.#unanswered += 1;
    return true;
  }

  /**
   * Waits for this process's turn to send one request: a slot of the shared schedule once a limit
   * is known; before, only a hold of the fleet's, as last peeked (no call to Redis per request),
   * and, until this process has heard an answer, one request at a time: the first answer may
   * advertise a limit smaller than the requests a fleet has in flight.
   */
  async turn(signal?: AbortSignal): Promise<void> {
    while (!this.#limited) {
      const holdUntil = await this.#unlimitedHold();
      if (holdUntil === undefined) break;
      const wait = holdUntil - this.#now();
      if (wait > 0) await sleep(wait, undefined, { signal });
      else if (this.#firstAnswer && this.#unanswered > 0) await this.#untilFirstAnswer(signal);
      else {
        this.#unanswered += 1;
        return;
      }
    }
    for (;;) {
      const { wait, member } = await this.#reserveSlot();
      if (wait === 0) return;
      try {
        await sleep(Math.abs(wait), undefined, { signal });
        // A slot given before a Remaining of 0 was heard (by any process) is not used: it waits
        // for the window's end like the rest.
        if (wait > 0 && (this.#interval !== undefined || !(await this.#held()))) return;
      } catch (error) {
        await this.#release(member);
        throw error;
      }
      await this.#release(member);
    }
  }

  /** A slot not used is no request on its way: it would lessen what is left for a minute. */
  async #release(member: string): Promise<void> {
    if (member !== '') await this.#redis.oiRelease(this.#keys.learned, this.#keys.flight, member);
  }

  /** Until the first answer is heard, or PACE_FIRST_ANSWER_MS: then no turn waits for it again. */
  async #untilFirstAnswer(signal?: AbortSignal): Promise<void> {
    const first = this.#firstAnswer;
    if (!first) return;
    signal?.throwIfAborted();
    let settle: (heard: boolean) => void = () => undefined;
    const outcome = new Promise<boolean>((resolve) => (settle = resolve));
    const timer = setTimeout(() => {
      settle(false);
    }, PACE_FIRST_ANSWER_MS);
    const stop = () => {
      settle(false);
    };
    signal?.addEventListener('abort', stop, { once: true });
    void first.heard.then(() => {
      settle(true);
    });
    try {
      if (!(await outcome)) {
        signal?.throwIfAborted();
        this.#firstAnswer = undefined;
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Whether the fleet is held now (a spent window, a 429), as Redis says. */
  async #held(): Promise<boolean> {
    return (await this.#holdMs()) > 0;
  }

  /** How long the fleet is still held, as Redis says once what was heard here is recorded. */
  async #holdMs(): Promise<number> {
    await this.untilLearned();
    const [, , holdMs] = await this.#redis.oiPeek(
      this.#keys.schedule,
      this.#keys.learned,
      String(this.#now()),
      this.#clock,
    );
    return holdMs;
  }

  /**
   * Until when the fleet is held, as Redis said at most PACE_PEEK_MS ago (asked by one turn at a
   * time); undefined once a limit is known, here or in Redis.
   */
  async #unlimitedHold(): Promise<number | undefined> {
    if (this.#now() - this.#peeked.at >= PACE_PEEK_MS) await this.#peek();
    return this.#limited ? undefined : this.#peeked.holdUntil;
  }

  async #peek(): Promise<void> {
    this.#peeking ??= (async () => {
      try {
        const at = this.#now();
        const [slotMs, limit] = await this.#redis.oiPeek(
          this.#keys.schedule,
          this.#keys.learned,
          String(at),
          this.#clock,
        );
        if (limit > 0) this.#limited = true;
        this.#peeked = { at, holdUntil: Math.max(this.#peeked.holdUntil, at + slotMs) };
      } finally {
        this.#peeking = undefined;
      }
    })();
    await this.#peeking;
  }

  /**
   * A hold this process knows of that has not ended (a Retry-After or a spent window it heard, or
   * peeked): what a request whose turn came before it waits out before leaving; undefined when
   * there is none.
   */
  holdHeard(signal?: AbortSignal): Promise<void> | undefined {
    const wait = this.#peeked.holdUntil - this.#now();
    if (wait > 0) return sleep(wait, undefined, { signal });
    // A spent window heard here but not yet in Redis: its end is known once it is recorded.
    if (this.#spending.size > 0) return this.#spentWindow(signal);
    return undefined;
  }

  async #spentWindow(signal: AbortSignal | undefined): Promise<void> {
    const holdMs = await this.#holdMs();
    if (holdMs > 0) await sleep(holdMs, undefined, { signal });
  }

  /** No request before `ms` from now, for anyone (a Retry-After). */
  async holdFor(asked: number): Promise<void> {
    const ms = Math.min(asked, API_MAX_WAIT_MS);
    const now = this.#now();
    this.#peeked.holdUntil = Math.max(this.#peeked.holdUntil, now + ms);
    await this.#redis.oiHold(
      this.#keys.schedule,
      this.#keys.learned,
      String(now),
      this.#clock,
      String(ms),
    );
  }

  /**
   * Learns from one answer of the API (the client's `onAnswer`). Never throws: a lost lesson
   * costs at most a 429, which is obeyed as well.
   */
  learn(answer: ApiAnswer): void {
    // API_RATE_LIMIT's spacing is the user's word: it is kept as it is, 429s aside (holdFor).
    if (this.#interval !== undefined) return;
    // Answers come in any order: which request this one answers is not known, only how many
    // are still on their way (the oldest stands for it).
    this.#firstAnswer?.resolve();
    this.#firstAnswer = undefined;
    const counted = this.#unanswered === 0;
    this.#unanswered = Math.max(0, this.#unanswered - 1);
    if (answer.status === 429) this.#refused(answer);
    const advertised = advertisedLimit(answer);
    if (advertised === undefined) return;
    const unanswered = { count: this.#unanswered, counted };
    this.#unanswered = 0;
    this.#limited = true;
    const lesson = this.#record(answer, advertised, unanswered).catch((error: unknown) => {
      this.#logger?.warn({ err: error }, 'the API rate limit could not be recorded in Redis');
    });
    this.#learning.add(lesson);
    if (advertised.remaining === 0) this.#spending.add(lesson);
    void lesson.finally(() => {
      this.#learning.delete(lesson);
      this.#spending.delete(lesson);
    });
  }

  /**
   * A 429 holds this process at once (a second at least, as the row job does: Laravel says 0 in
   * a window's last second), before Redis has it for the fleet (here, or from the row job).
   */
  #refused(answer: ApiAnswer): void {
    const resetAt = resetTime(answer.headers, answer.receivedAt) ?? 0;
    const until = Math.min(
      Math.max(resetAt, answer.receivedAt + 1000),
      answer.receivedAt + API_MAX_WAIT_MS,
    );
    this.#peeked.holdUntil = Math.max(this.#peeked.holdUntil, until);
  }

  /** Records what an answer advertised, for the whole fleet; says a new limit once. */
  async #record(
    answer: ApiAnswer,
    advertised: NonNullable<ReturnType<typeof advertisedLimit>>,
    /** This process's requests on their way not yet in `flight`; whether this one was. */
    unanswered: { count: number; counted: boolean },
  ): Promise<void> {
    const [told, windowMs, heldMs] = await this.#redis.oiLearn(
      this.#keys.schedule,
      this.#keys.learned,
      this.#keys.flight,
      String(this.#now()),
      this.#clock,
      String(advertised.limit),
      String(advertised.remaining),
      advertised.resetAt === undefined ? '' : String(advertised.resetAt),
      String(answer.sentAt),
      String(answer.receivedAt),
      answer.status === 429 ? '1' : '',
      String(unanswered.count),
      unanswered.counted ? '1' : '',
    );
    // A spent window (or a 429) holds the requests whose turn came before it too: kept here, as
    // they leave once Redis has the lesson, when they no longer wait for it (holdHeard).
    if (heldMs > 0) this.#peeked.holdUntil = Math.max(this.#peeked.holdUntil, this.#now() + heldMs);
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
}
