import { describe, expect, it } from 'vitest';

import { RateLimiter } from '../../sandbox/rate-limiter.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('allows the limit, then refuses with the seconds left in the window', () => {
    const c = clock();
    const limiter = new RateLimiter(3, 60_000, c.now);
    expect([1, 2, 3].map(() => limiter.hit('t').remaining)).toEqual([2, 1, 0]);
    c.advance(15_500);
    const refused = limiter.hit('t');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 45 });
    expect(refused.resetAt).toBe(1_000 + 60);
  });

  it('does not count refused requests', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 10_000, c.now);
    limiter.hit('t');
    for (let i = 0; i < 5; i++) limiter.hit('t');
    c.advance(10_000);
    expect(limiter.hit('t')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('opens a new window when the old one has passed', () => {
    const c = clock();
    const limiter = new RateLimiter(2, 60_000, c.now);
    limiter.hit('t');
    limiter.hit('t');
    expect(limiter.hit('t').allowed).toBe(false);
    c.advance(60_000);
    expect(limiter.hit('t')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps one window per key', () => {
    const limiter = new RateLimiter(1, 60_000, clock().now);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
    expect(limiter.hit('b').allowed).toBe(true);
  });

  it('counts Retry-After in whole seconds from the second the window began, as Laravel does', () => {
    const c = clock(1_000_700); // 0.7 s into a second
    const limiter = new RateLimiter(1, 10_000, c.now);
    limiter.hit('t');
    // The window ends at 1_010_700 ms; Laravel's timer says second 1_010.
    c.advance(5_000);
    expect(limiter.hit('t')).toMatchObject({
      allowed: false,
      retryAfterSeconds: 5,
      resetAt: 1_010,
    });
    // In its last 0.7 s the window still refuses, with a Retry-After of 0.
    c.advance(4_500);
    expect(limiter.hit('t')).toMatchObject({
      allowed: false,
      retryAfterSeconds: 0,
      resetAt: 1_010,
    });
    c.advance(500);
    expect(limiter.hit('t').allowed).toBe(true);
  });
});
