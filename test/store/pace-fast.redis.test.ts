import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiAnswer } from '../../src/api/rate-headers.js';
import { Keys } from '../../src/store/keys.js';
import { PACE_PEEK_MS as PEEK_MS } from '../../src/policy.js';
import { ApiPace } from '../../src/store/pace.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { monitorRedis } from '../helpers/redis-monitor.js';

let redis: TestRedis;
const clients: Redis[] = [];
beforeAll(async () => {
  redis = await useTestRedis();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis.cleanup();
});

function client(): Redis {
  const made = new Redis(redis.url);
  clients.push(made);
  return made;
}

const keyOf = (name: string) => new Keys(`{${redis.prefix}}-${name}`).apiPace('c1');

/** Processes of one fleet on `key`, each its own Redis client, on a clock of the test's. */
function processes(key: string, clock: { now: number }, n = 2): ApiPace[] {
  return Array.from(
    { length: n },
    () => new ApiPace(client(), key, undefined, { now: () => clock.now, clock: 'local' }),
  );
}

/**
 * The script calls the Redis server runs on `key`'s keys, as MONITOR sees them (the server may
 * be shared with other tests: only this key's are counted).
 */
async function commandsOn(key: string) {
  const seen: string[][] = [];
  const marker = `${key}:marker`;
  // The commands a script runs are shown too, as from 'lua': only the calls are counted.
  const monitor = await monitorRedis(redis.url, ({ source, args }) => {
    if (source !== 'lua' && args.some((arg) => arg.includes(key))) seen.push(args);
  });
  return {
    /** The commands run so far: MONITOR is told after they run; a marker says all have come. */
    async count(): Promise<number> {
      const before = seen.length;
      await redis.client.exists(marker);
      while (!seen.slice(before).some((args) => args.includes(marker)))
        await new Promise((resolve) => setTimeout(resolve, 5));
      return seen.filter((args) => !args.includes(marker)).length;
    },
    stop: () => {
      monitor.stop();
    },
  };
}

/** An answer heard at once, with the X-RateLimit-* headers of a Laravel throttle. */
function answer(sentAt: number, limit: number, remaining: number): ApiAnswer {
  return {
    status: 200,
    sentAt,
    receivedAt: sentAt,
    headers: { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) },
  };
}

/** Whether `promise` is still pending after `ms` (real time). */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new Promise((resolve) => setTimeout(resolve, ms, 'pending'));
  return (await Promise.race([promise.then(() => 'settled'), timeout])) === 'pending';
}

describe('ApiPace while no limit is known (API_RATE_LIMIT unset, none heard)', () => {
  it('asks Redis nothing per turn: one look at the fleet per PEEK_MS at most', async () => {
    const key = keyOf('quiet');
    const clock = { now: 1_800_000_000_000 };
    const [pace] = processes(key, clock, 1) as [ApiPace];
    pace.learn({ status: 201, sentAt: clock.now, receivedAt: clock.now, headers: {} });
    await pace.turn(); // its first look
    const redisCommands = await commandsOn(key);
    try {
      for (let i = 0; i < 100; i++) await pace.turn();
      expect(await redisCommands.count()).toBe(0);
      clock.now += PEEK_MS;
      for (let i = 0; i < 100; i++) await pace.turn();
      expect(await redisCommands.count()).toBe(1);
    } finally {
      redisCommands.stop();
    }
  });

  it("obeys another process's hold (a 429's Retry-After) once its last look is PEEK_MS old", async () => {
    const key = keyOf('hold');
    const clock = { now: 1_800_000_000_000 };
    const [quiet, refused] = processes(key, clock) as [ApiPace, ApiPace];
    quiet.learn({ status: 201, sentAt: clock.now, receivedAt: clock.now, headers: {} });
    await quiet.turn(); // looks now
    await refused.holdFor(60_000);
    // Within PEEK_MS of its last look it may not know yet: that is the bound.
    clock.now += PEEK_MS;
    const stop = new AbortController();
    const turn = quiet.turn(stop.signal);
    expect(await pendingAfter(turn, 200)).toBe(true);
    stop.abort();
    await expect(turn).rejects.toThrow();
  });

  it('sends one request at a time until its first answer is heard', async () => {
    const clock = { now: 1_800_000_000_000 };
    const [pace] = processes(keyOf('first'), clock, 1) as [ApiPace];
    await pace.turn();
    const second = pace.turn();
    expect(await pendingAfter(second, 100)).toBe(true);
    pace.learn({ status: 201, sentAt: clock.now, receivedAt: clock.now, headers: {} });
    await second;
    await pace.turn(); // no waiting for answers any more
  });

  it('takes slots of the shared schedule once any process of the fleet has heard a limit', async () => {
    const key = keyOf('switch');
    const clock = { now: 1_800_000_000_000 };
    const [quiet, heard] = processes(key, clock) as [ApiPace, ApiPace];
    quiet.learn({ status: 201, sentAt: clock.now, receivedAt: clock.now, headers: {} });
    await quiet.turn();
    // Another process hears a limit and its window's length (two windows' first answers).
    heard.learn(answer(clock.now, 10, 9));
    heard.learn(answer(clock.now + 1000, 10, 9));
    await heard.untilLearned();
    clock.now += PEEK_MS;
    const redisCommands = await commandsOn(key);
    try {
      // It sees the limit on its next look, then takes a slot per turn (a script call each).
      for (let i = 0; i < 5; i++) await quiet.turn();
      expect(await redisCommands.count()).toBeGreaterThanOrEqual(6);
      expect(await redis.client.zcard(`${key}:flight`)).toBe(5);
    } finally {
      redisCommands.stop();
    }
  });
});

describe('ApiPace on hosts whose clocks disagree', () => {
  it("keeps the Redis server's time: a window is measured right, a hold lasts as long for every process", async () => {
    const key = keyOf('skew');
    const logs: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(line) });
    const ahead = new ApiPace(client(), key, undefined, { now: () => Date.now() + 60_000, logger });
    const behind = new ApiPace(client(), key, undefined, {
      now: () => Date.now() - 60_000,
      logger,
    });
    // Two windows' first answers a second apart, each timed by the clock of its process.
    const t = Date.now();
    ahead.learn(answer(t + 60_000, 10, 9));
    await ahead.untilLearned();
    behind.learn(answer(t + 1000 - 60_000, 10, 9));
    await behind.untilLearned();
    // A 1 s window (not 121 s, nor minus 119 s).
    const said = logs.find((line) => line.includes('window is about'));
    const windowMs = (JSON.parse(said ?? '{}') as { windowMs?: number }).windowMs ?? 0;
    // The calls' own time counts in it: 200 ms either way stays far from 121 s and -119 s, and a
    // loaded machine's slow Redis round trip cannot fail it.
    expect(windowMs).toBeGreaterThan(800);
    expect(windowMs).toBeLessThan(1200);

    // A second's hold said by the process a minute ahead holds the one behind for a second.
    const held = keyOf('skew-hold');
    const other = new ApiPace(client(), held, 600, { now: () => Date.now() - 60_000 });
    await new ApiPace(client(), held, 600, { now: () => Date.now() + 60_000 }).holdFor(1000);
    const wait = await other.reserve();
    // Less the time since the hold (long on a loaded machine), yet nowhere near 0 or 61 s.
    expect(wait).toBeGreaterThan(500);
    expect(wait).toBeLessThanOrEqual(1000);
  });
});
