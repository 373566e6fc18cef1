import type { FastifyReply, FastifyRequest } from 'fastify';

import { TOO_MANY_ATTEMPTS, UNAUTHENTICATED } from '../laravel.js';
import { type RateDecision, RateLimiter } from '../rate-limiter.js';
import { sendMessage } from '../reply.js';
import type { SandboxToken } from '../tokens.js';

type CallerHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Laravel's auth:sanctum middleware, then its throttle when `limit` is given: a 401 without a
 * known bearer token, a 429 past the limit, else the caller's organisation on the request.
 */
export function callerHook(
  tokens: readonly SandboxToken[],
  limit?: { requests: number; windowMs: number; now: () => number },
): CallerHook {
  const orgs = new Map(tokens.map((t) => [t.token, t.org]));
  const limiter = limit && new RateLimiter(limit.requests, limit.windowMs, limit.now);
  return async (request, reply) => {
    const caller = authenticate(request, orgs);
    if (caller === null) return sendMessage(reply, 401, UNAUTHENTICATED);
    request.org = caller.org;
    if (limiter) return throttle(limiter.hit(caller.token), reply);
    return undefined;
  };
}

/** Laravel's Request::bearerToken(), when it is a known token. */
function authenticate(
  request: FastifyRequest,
  orgs: ReadonlyMap<string, string>,
): { token: string; org: string } | null {
  const header = request.headers.authorization ?? '';
  const position = header.lastIndexOf('Bearer ');
  if (position === -1) return null;
  const token = header.slice(position + 7).split(',')[0] ?? '';
  const org = orgs.get(token);
  return org === undefined ? null : { token, org };
}

/** Laravel's throttle middleware: its headers on every answer, a 429 past the limit. */
function throttle(decision: RateDecision, reply: FastifyReply): FastifyReply | undefined {
  reply.headers({
    'x-ratelimit-limit': decision.limit,
    'x-ratelimit-remaining': decision.remaining,
  });
  if (decision.allowed) return undefined;
  return sendMessage(reply, 429, TOO_MANY_ATTEMPTS, {
    'retry-after': decision.retryAfterSeconds,
    'x-ratelimit-reset': decision.resetAt,
  });
}
