/** The answer of one rate-limit check, with what goes into the X-RateLimit-* headers. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (the Retry-After of a 429). */
  retryAfterSeconds: number;
  /** Unix time in seconds at which the window resets (X-RateLimit-Reset). */
  resetAt: number;
}

/**
 * Laravel's throttle middleware: per token, a fixed window that opens with the first request
 * and lasts `windowMs`; refused requests do not count.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { resetAtMs: number; hits: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  hit(key: string): RateDecision {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.resetAtMs) {
      window = { resetAtMs: now + this.windowMs, hits: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.hits < this.limit;
    if (allowed) window.hits += 1;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.hits),
      retryAfterSeconds: Math.max(1, Math.ceil((window.resetAtMs - now) / 1000)),
      resetAt: Math.ceil(window.resetAtMs / 1000),
    };
  }
}
