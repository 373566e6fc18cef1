import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

import { adminRoutes } from './admin.js';
import { callerHook } from './callers.js';
import type { SandboxContext } from './context.js';
import { registerFallbacks } from './fallbacks.js';
import { fileRoutes } from './files.js';
import { orderRoutes } from './orders.js';

/**
 * The API routes behind authentication and the rate limit, the sandbox's own routes behind
 * authentication alone (never throttled, so tests can count what was created), and Laravel's
 * answers when no route matches.
 */
export async function registerRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  now: () => number,
): Promise<void> {
  const { options } = ctx;
  await app.register(multipart, {
    limits: { fileSize: Infinity, files: Infinity, parts: 10_000 },
    throwFileSizeLimit: false,
  });
  registerFallbacks(app);
  const limit =
    options.rateLimit === undefined
      ? undefined
      : { requests: options.rateLimit, windowMs: options.rateWindowMs, now };
  await app.register(async (api) => {
    api.addHook('onRequest', callerHook(options.tokens, limit));
    orderRoutes(api, ctx);
    fileRoutes(api, ctx);
  });
  await app.register(async (admin) => {
    admin.addHook('onRequest', callerHook(options.tokens));
    adminRoutes(admin, ctx);
  });
}
