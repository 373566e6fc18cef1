import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiAnswer } from '../../src/api/rate-headers.js';
import { Keys } from '../../src/store/keys.js';
import { ApiPace, LEARNED_MARGIN } from '../../src/store/pace.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
const clients: Redis[] = [];
beforeAll(async () => {
  redis = await useTestRedis();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis.cleanup();
});

/**
 * Two processes' worth of pace on one schedule: each its own Redis client, one shared clock of
 * the test's, which the scripts keep time by too (`clock: 'local'`).
 */
function fleet(name: string, requestsPerMinute?: number) {
  const clock = { now: 1_800_000_000_000 };
  const key = new Keys(`{${redis.prefix}}-${name}`).apiPace('c1');
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(line) });
  const paces = [0, 1].map(() => {
    const client = new Redis(redis.url);
    clients.push(client);
    return new ApiPace(client, key, requestsPerMinute, {
      now: () => clock.now,
      clock: 'local',
      logger,
    });
  });
  return { clock, paces: paces as [ApiPace, ApiPace], logs };
}

/** An answer as a Laravel throttle writes it, sent at `sentAt` and heard at once. */
function answer(sentAt: number, limit: number, remaining: number, extra = {}): ApiAnswer {
  return {
    status: 200,
    sentAt,
    receivedAt: sentAt,
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      ...extra,
    },
  };
}

/** A 429 as Laravel writes it, with its Retry-After. */
function refusal(sentAt: number, limit: number, retryAfterS: number): ApiAnswer {
  return { ...answer(sentAt, limit, 0, { 'retry-after': String(retryAfterS) }), status: 429 };
}

/** Lets the lessons given to `learn` reach Redis (a turn waits for them). */
async function reserveAll(pace: ApiPace, n: number): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) waits.push(await pace.reserve());
  return waits;
}

describe('ApiPace learning the limit', () => {
  it('paces nothing while the API advertises nothing', async () => {
    const { paces } = fleet('none');
    paces[0].learn({ status: 200, sentAt: 0, receivedAt: 0, headers: {} });
    await paces[0].untilLearned();
    expect(await reserveAll(paces[1], 3)).toEqual([0, 0, 0]);
  });

  it('learns the limit and its window from the headers, says it once, and spaces the whole fleet by it', async () => {
    const { clock, paces, logs } = fleet('learn');
    const t0 = clock.now;
    // Two windows' first answers (Remaining = limit - 1), one second apart: a 1 s window.
    paces[0].learn(answer(t0, 10, 9));
    paces[0].learn(answer(t0 + 300, 10, 8));
    await paces[0].reserve();
    paces[1].learn(answer(t0 + 1000, 10, 9));
    await paces[1].reserve();
    clock.now = t0 + 5000;
    const interval = Math.round((1000 * LEARNED_MARGIN) / 10);
    const waits = [...(await reserveAll(paces[0], 2)), ...(await reserveAll(paces[1], 2))];
    expect(waits).toEqual([0, 1, 2, 3].map((i) => i * interval));
    const told = logs.filter((line) => line.includes('requests per window'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('"limit":10');
    expect(logs.filter((line) => line.includes('window is about'))).toHaveLength(1);

    // A new limit is said again.
    paces[1].learn(answer(clock.now, 20, 19));
    await paces[1].reserve();
    expect(logs.filter((line) => line.includes('requests per window'))).toHaveLength(2);
  });

  it('gives no more slots than the last answer left, less the requests still on their way', async () => {
    const { clock, paces } = fleet('flight');
    const t0 = clock.now;
    paces[0].learn(answer(t0, 10, 9));
    await paces[0].untilLearned();
    // Nine left, nine given (no spacing while the window's length is unknown), then none.
    const waits = [...(await reserveAll(paces[0], 6)), ...(await reserveAll(paces[1], 6))];
    expect(waits.filter((wait) => wait >= 0)).toHaveLength(9);
    expect(waits.slice(9).every((wait) => wait < 0)).toBe(true);
    // Three answers come back: six left, six still on their way: still none.
    for (const left of [8, 7, 6]) paces[1].learn(answer(t0 + 10, 10, left));
    await paces[1].untilLearned();
    expect(await paces[0].reserve()).toBeLessThan(0);
  });

  it('sends nothing after a Remaining of 0 before the window resets', async () => {
    const { clock, paces } = fleet('spent');
    const t0 = clock.now;
    paces[0].learn(answer(t0, 5, 4));
    paces[0].learn(answer(t0 + 2000, 5, 4)); // a 2 s window
    paces[0].learn(answer(t0 + 2100, 5, 0)); // spent by someone else
    await paces[0].untilLearned();
    clock.now = t0 + 2200;
    // Its window began at t0 + 2000: nothing for anyone before t0 + 4000, then spaced.
    expect(await paces[1].reserve()).toBe(1800);
    expect(await paces[0].reserve()).toBeGreaterThanOrEqual(1800);
  });

  it('lets a single request learn the end of a window spent before its length is known', async () => {
    const { clock, paces } = fleet('unknown');
    const t0 = clock.now;
    paces[0].learn(answer(t0, 3, 2));
    paces[0].learn(answer(t0 + 50, 3, 0));
    await paces[0].untilLearned();
    // No slot (a negative answer: ask again later) for a second from the window's start.
    clock.now = t0 + 100;
    expect(await paces[1].reserve()).toBeLessThan(0);
    clock.now = t0 + 1000;
    expect(await paces[1].reserve()).toBeLessThan(0);
    // Then one request, and no other until its answer is heard.
    clock.now = t0 + 1020;
    expect(await paces[1].reserve()).toBe(0);
    expect(await paces[0].reserve()).toBeLessThan(0);
    // Refused until t0 + 3020; again one request, then, as the window's length is a guess.
    paces[1].learn(refusal(t0 + 1020, 3, 2));
    await paces[1].untilLearned();
    clock.now = t0 + 2000;
    expect(await paces[0].reserve()).toBe(1020);
    expect(await paces[1].reserve()).toBeLessThan(0);
    // Its answer opens a window: three seconds after the last one, spacing the fleet by it.
    clock.now = t0 + 3020;
    paces[0].learn(answer(t0 + 3020, 3, 2));
    await paces[0].untilLearned();
    const waits = await reserveAll(paces[1], 2);
    expect(waits[1]).toBe(Math.ceil((3020 * LEARNED_MARGIN) / 3) + (waits[0] ?? 0));
  });

  it('gives no slot before a 429 reset, and ignores the late answers of a window gone', async () => {
    const { clock, paces } = fleet('refused');
    const t0 = clock.now;
    paces[0].learn(refusal(t0, 5, 7));
    await paces[0].untilLearned();
    for (const at of [t0 + 1000, t0 + 6999]) {
      clock.now = at;
      const wait = await paces[1].reserve();
      expect(wait < 0 || at + wait >= t0 + 7000, `a slot at ${at} + ${wait}`).toBe(true);
    }
    // A window opened later (Remaining 4 at t0 + 8000); an answer sent before it says 0: late.
    paces[0].learn(answer(t0 + 8000, 5, 4));
    paces[0].learn(answer(t0 + 7990, 5, 0));
    await paces[0].untilLearned();
    clock.now = t0 + 9000;
    const wait = await paces[0].reserve();
    expect(wait).toBeGreaterThanOrEqual(0);
    expect(wait).toBeLessThan(2000);
  });

  it('holds for an X-RateLimit-Reset on a 429 only: an API that sends it on every answer is paced, not held', async () => {
    const { clock, paces } = fleet('reset-always');
    const t0 = clock.now;
    const resetS = Math.ceil((t0 + 60_000) / 1000);
    paces[0].learn(answer(t0, 100, 99, { 'x-ratelimit-reset': String(resetS) }));
    paces[0].learn(answer(t0 + 10, 100, 98, { 'x-ratelimit-reset': String(resetS) }));
    await paces[0].untilLearned();
    clock.now = t0 + 20;
    expect(await paces[1].reserve()).toBeLessThan(1000);
  });

  it('keeps the spacing of API_RATE_LIMIT: its headers are not learned from', async () => {
    const { clock, paces, logs } = fleet('fixed', 600); // 100 ms apart
    paces[0].learn(answer(clock.now, 5, 4));
    paces[0].learn(answer(clock.now + 10, 5, 0));
    await paces[0].untilLearned();
    expect(await reserveAll(paces[1], 3)).toEqual([0, 100, 200]);
    expect(logs).toEqual([]);
  });
});

describe('ApiPace.holdHeard: what a request whose turn came already waits for before it leaves', () => {
  it('is nothing without a hold, a Retry-After heard here, or a spent window on its way to Redis', async () => {
    const { clock, paces } = fleet('heard');
    const [pace] = paces;
    expect(pace.holdHeard()).toBeUndefined();

    // A window spent (Remaining 0), heard here: waited for until Redis has it, then its end.
    pace.learn(answer(clock.now, 5, 0));
    const spent = pace.holdHeard();
    expect(spent).toBeDefined();
    await spent;
    await pace.untilLearned();
    clock.now += 60_000;
    expect(pace.holdHeard()).toBeUndefined();

    // A 429 with a Retry-After of 1 s: a second from when it was heard, whatever Redis says.
    pace.learn(refusal(clock.now, 5, 1));
    const held = pace.holdHeard();
    expect(held).toBeDefined();
    await pace.untilLearned();
    clock.now += 999;
    expect(pace.holdHeard()).toBeDefined();
    clock.now += 1;
    expect(pace.holdHeard()).toBeUndefined();
    await held;
  });

  it('keeps a window spent here once Redis has it, until its end: not only on its way there', async () => {
    const { clock, paces } = fleet('heard-kept');
    const [pace] = paces;
    const t0 = clock.now;
    // A window begun (Remaining = limit - 1) and spent 100 ms later: held until a second (and
    // the margin) from its start, its length not known yet.
    pace.learn(answer(t0, 5, 4));
    clock.now += 100;
    pace.learn(answer(clock.now, 5, 0));
    await pace.untilLearned();
    // A request whose turn came before the 0 and whose body took long to make (a busy
    // machine) leaves only once the window has ended.
    clock.now = t0 + 1019;
    const spent = pace.holdHeard();
    expect(spent).toBeDefined();
    await spent;
    clock.now = t0 + 1020;
    expect(pace.holdHeard()).toBeUndefined();
  });
});
