/**
 * The sandbox of the Order and File Service: a Fastify server that answers like the provider's
 * Laravel application, checks in Laravel's order: proxy body size → redirect → injected faults →
 * post size (413) → route (404/405) → token (401) → rate limit (429) → record (404) → validation
 * (422).
 */
import { setMaxListeners } from 'node:events';

import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

import { registerBodyParsers } from './body-parsers.js';
import { registerFrontHooks } from './front.js';
import { type SandboxOptions, type SandboxOptionsInput, sandboxOptionsSchema } from './options.js';
import { defaultProductsFile, type ProductSource, readProductsFile } from './products.js';
import { openSandboxContext } from './routes/context.js';
import { registerRoutes } from './routes/register.js';
import type { SandboxToken } from './tokens.js';

export interface SandboxDeps {
  /** Request and error logs; silent when absent. */
  logger?: Logger;
  /** Milliseconds since the epoch (rate-limit windows and timestamps). */
  now?: () => number;
}

export interface RunningSandbox {
  /** The base URL, e.g. `http://127.0.0.1:4010`: API paths (`/api/orders/`) go after it. */
  url: string;
  tokens: readonly SandboxToken[];
  options: SandboxOptions;
  close(): Promise<void>;
}

/** Starts a sandbox and listens; `port: 0` (the default) takes a free port. */
export async function startSandbox(
  input: SandboxOptionsInput = {},
  deps: SandboxDeps = {},
): Promise<RunningSandbox> {
  const options = sandboxOptionsSchema.parse(input);
  const products = await readProductsFile(options.productsFile ?? defaultProductsFile());
  const { app, close } = await buildSandbox(options, products, deps);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string')
    throw new Error('sandbox has no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, tokens: options.tokens, options, close };
}

/**
 * The Fastify app, not yet listening (for `inject` and for embedding). `products` is what the
 * products file lists; a client's catalogue will do.
 */
export async function buildSandbox(
  options: SandboxOptions,
  products: ProductSource,
  deps: SandboxDeps = {},
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const now = deps.now ?? Date.now;
  const ctx = await openSandboxContext(options, products, now);
  const app = createApp(options, deps.logger);
  const shutdown = new AbortController();
  // Every delayed request listens to it: as many listeners as requests in flight is the design.
  setMaxListeners(0, shutdown.signal);
  registerFrontHooks(app, options, ctx.requests, shutdown.signal);
  registerBodyParsers(app);
  await registerRoutes(app, ctx, now);

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    shutdown.abort(); // injected delays end now, not when they would have
    await app.close();
    ctx.store.close();
  };
  return { app, close };
}

function createApp(
  options: SandboxOptions,
  logger: FastifyBaseLogger | undefined,
): FastifyInstance {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: options.postMaxBytes,
    // nginx merges slashes (`//api/orders`) before Laravel sees the path; Laravel ignores a trailing one.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    forceCloseConnections: true,
    // One debug line per answer instead of Fastify's two info lines: rehearsals send thousands.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.logged) request.logged.status = reply.statusCode;
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime },
      'answered',
    );
  });
  app.decorateRequest('org', '');
  app.decorateRequest('fault', null);
  app.decorateRequest('logged', null);
  return app;
}
