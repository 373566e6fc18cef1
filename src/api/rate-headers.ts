/**
 * What an answer says of the API's rate limit, as a Laravel throttle writes it: the limit and
 * what is left of it on every answer, and on a 429 when the window resets. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** One answer of the API, as the client saw it (success or error). */
export interface ApiAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** When the request was sent and when its answer came, ms since the epoch. */
  sentAt: number;
  receivedAt: number;
}

/** The rate limit an answer advertises. */
export interface AdvertisedLimit {
  /** X-RateLimit-Limit: requests allowed per window. */
  limit: number;
  /** X-RateLimit-Remaining: requests left in the current window. */
  remaining: number;
  /** When the window resets, ms since the epoch, when the answer says (a 429's headers). */
  resetAt?: number;
}

/** The limit an answer advertises, or undefined when it sends no usable X-RateLimit-* pair. */
export function advertisedLimit(answer: ApiAnswer): AdvertisedLimit | undefined {
  const limit = wholeNumber(answer.headers['x-ratelimit-limit']);
  const remaining = wholeNumber(answer.headers['x-ratelimit-remaining']);
  if (limit === undefined || remaining === undefined || limit < 1) return undefined;
  const resetAt = resetTime(answer.headers, answer.receivedAt);
  return {
    limit,
    remaining: Math.min(remaining, limit),
    ...(resetAt !== undefined && { resetAt }),
  };
}

/**
 * When the window resets: Retry-After (seconds or an HTTP date) first, as it does not depend
 * on the two clocks agreeing; else X-RateLimit-Reset, a Unix time in seconds (Laravel), or
 * seconds from now when it is too small to be a time.
 */
export function resetTime(headers: IncomingHttpHeaders, now: number): number | undefined {
  const retryAfter = first(headers['retry-after'])?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+$/.test(retryAfter)) return now + Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(now, at);
  }
  const reset = wholeNumber(headers['x-ratelimit-reset']);
  if (reset === undefined) return undefined;
  return reset > 1_000_000_000 ? Math.max(now, reset * 1000) : now + reset * 1000;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function wholeNumber(value: string | string[] | undefined): number | undefined {
  const text = first(value)?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}
