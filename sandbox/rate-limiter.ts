/** The answer of one rate-limit check, with what goes into the X-RateLimit-* headers. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, as Laravel reckons them (the Retry-After of a 429). */
  retryAfterSeconds: number;
  /** Unix time in seconds at which the window resets (X-RateLimit-Reset). */
  resetAt: number;
}

/**
 * Laravel's throttle middleware: per token, a fixed window that opens with the first request
 * and lasts `windowMs`; refused requests do not count. Laravel keeps the window's end twice:
 * the cache entries expire `windowMs` after the first request, to the millisecond, and a timer
 * holds that end in whole seconds counted from the *second* the first request came in
 * (`availableAt`). Retry-After is that timer less the current whole second, so it is up to a
 * second early or late, and 0 in a window's last moments while requests are still refused.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { resetAtMs: number; timer: number; hits: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  hit(key: string): RateDecision {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.resetAtMs) {
      const timer = Math.floor(now / 1000) + Math.ceil(this.windowMs / 1000);
      window = { resetAtMs: now + this.windowMs, timer, hits: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.hits < this.limit;
    if (allowed) window.hits += 1;
    const second = Math.floor(now / 1000);
    const retryAfterSeconds = Math.max(0, window.timer - second);
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.hits),
      retryAfterSeconds,
      resetAt: second + retryAfterSeconds,
    };
  }
}
