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
    expect(refused.resetAt).toBe(Math.ceil((1_000_000 + 60_000) / 1000));
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

  it('never asks to wait less than a second', () => {
    const c = clock();
    const limiter = new RateLimiter(1, 60_000, c.now);
    limiter.hit('t');
    c.advance(59_999);
    expect(limiter.hit('t').retryAfterSeconds).toBe(1);
  });
});
