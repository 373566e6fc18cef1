/**
 * The sandbox of the Order and File Service: a Fastify server that answers like the provider's
 * Laravel application, checks in Laravel's order: proxy body size → redirect → injected faults →
 * post size (413) → route (404/405) → token (401) → rate limit (429) → record (404) → validation
 * (422).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import multipart from '@fastify/multipart';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';

import { openBlobStore } from './blobs.js';
import { type FaultDecision, FaultPlan } from './faults.js';
import {
  apacheMovedPage,
  methodNotAllowed,
  NGINX_413_PAGE,
  POST_TOO_LARGE,
  routeNotFound,
  SERVER_ERROR,
  SERVICE_UNAVAILABLE,
  TOO_MANY_ATTEMPTS,
  UNAUTHENTICATED,
} from './laravel.js';
import { type SandboxOptions, type SandboxOptionsInput, sandboxOptionsSchema } from './options.js';
import { orderRules } from './order-rules.js';
import {
  defaultProductsFile,
  type ProductSource,
  ProductList,
  readProductsFile,
} from './products.js';
import { type RateDecision, RateLimiter } from './rate-limiter.js';
import { type LoggedRequest, RequestLog } from './request-log.js';
import { resetConnection, sendMessage } from './reply.js';
import { adminRoutes } from './routes/admin.js';
import { type SandboxContext, UNSUPPORTED_BODY } from './routes/context.js';
import { fileRoutes } from './routes/files.js';
import { orderRoutes } from './routes/orders.js';
import { otherMethods } from './routes-table.js';
import { SandboxStore } from './store.js';
import type { SandboxToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organisation of the bearer token, once authenticated. */
    org: string;
    /** The injected faults drawn for this API request. */
    fault: FaultDecision | null;
    /** Its entry in the request log (API requests only). */
    logged: LoggedRequest | null;
  }
}

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

/** The Fastify app, not yet listening (for `inject` and for embedding). */
export async function buildSandbox(
  options: SandboxOptions,
  productSource: ProductSource,
  deps: SandboxDeps = {},
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const now = deps.now ?? Date.now;
  const store = SandboxStore.open(options.dataDir, () => new Date(now()));
  const blobs = await openBlobStore(
    options.dataDir === undefined ? undefined : `${options.dataDir}/blobs`,
  );
  const products = new ProductList(productSource.products);
  const ctx: SandboxContext = {
    options,
    store,
    blobs,
    products,
    rules: orderRules(products),
    requests: new RequestLog(),
  };
  const loggerInstance: FastifyBaseLogger | undefined = deps.logger;
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger: false }),
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

  const shutdown = new AbortController();
  registerFrontHooks(app, options, new FaultPlan(options.faults), ctx.requests, shutdown.signal);
  registerBodyParsers(app);
  await app.register(multipart, {
    limits: { fileSize: Infinity, files: Infinity, parts: 10_000 },
    throwFileSizeLimit: false,
  });

  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/');
    const others = otherMethods(path, request.method);
    if (others.length === 0) return sendMessage(reply, 404, routeNotFound(path));
    if (request.method === 'OPTIONS')
      return reply.code(200).header('allow', others.join(',')).send('');
    return sendMessage(reply, 405, methodNotAllowed(request.method, path, others), {
      allow: others.join(', '),
    });
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error.statusCode === 413) return sendMessage(reply, 413, POST_TOO_LARGE);
    if (request.raw.destroyed) {
      request.log.info({ err: error }, 'the client went away before the answer');
      return reply;
    }
    request.log.error({ err: error }, 'sandbox request failed');
    return sendMessage(reply, 500, SERVER_ERROR);
  });

  const tokens = new Map(options.tokens.map((t) => [t.token, t.org]));
  const limiter =
    options.rateLimit === undefined
      ? null
      : new RateLimiter(options.rateLimit, options.rateWindowMs, now);

  await app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      const caller = authenticate(request, tokens);
      if (caller === null) return sendMessage(reply, 401, UNAUTHENTICATED);
      request.org = caller.org;
      if (limiter) return throttle(limiter.hit(caller.token), reply);
    });
    orderRoutes(api, ctx);
    fileRoutes(api, ctx);
  });
  await app.register(async (admin) => {
    admin.addHook('onRequest', async (request, reply) => {
      const caller = authenticate(request, tokens);
      if (caller === null) return sendMessage(reply, 401, UNAUTHENTICATED);
      request.org = caller.org;
    });
    adminRoutes(admin, ctx);
  });

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    shutdown.abort(); // injected delays end now, not when they would have
    await app.close();
    store.close();
  };
  return { app, close };
}

/** What stands in front of Laravel: the proxy, Apache's rewrite, injected faults, PHP's limit. */
function registerFrontHooks(
  app: FastifyInstance,
  options: SandboxOptions,
  faults: FaultPlan,
  requests: RequestLog,
  shutdown: AbortSignal,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (options.proxyMaxBytes !== undefined && length > options.proxyMaxBytes) {
      return reply.code(413).header('content-type', 'text/html').send(NGINX_413_PAGE);
    }
    const [path = '/', query] = request.url.split('?');
    if (options.redirectTrailingSlash && path.length > 1 && path.endsWith('/')) {
      const location = path.replace(/\/+$/, '') + (query === undefined ? '' : `?${query}`);
      return reply
        .code(301)
        .headers({ location, 'content-type': 'text/html; charset=iso-8859-1' })
        .send(apacheMovedPage(location));
    }
    if (path.startsWith('/api/')) {
      request.logged = requests.add({ at: Date.now(), method: request.method, path, status: null });
      const fault = faults.next();
      request.fault = fault;
      if (fault.delayMs > 0) {
        try {
          await sleep(fault.delayMs, undefined, { signal: shutdown });
        } catch (error) {
          if (!shutdown.aborted) throw error;
          return resetConnection(request, reply); // the sandbox is closing
        }
      }
      if (fault.before === 'reset') return resetConnection(request, reply);
      if (fault.before === '503') {
        return sendMessage(reply, 503, SERVICE_UNAVAILABLE, {
          'retry-after': options.faults.retryAfterSeconds,
        });
      }
    }
    if (length > options.postMaxBytes) return sendMessage(reply, 413, POST_TOO_LARGE);
  });
}

/**
 * JSON bodies are decoded as Laravel does: a body that is not a JSON object reads as no input at
 * all (and so fails validation), never as a 400. Any other media type is left for the route to
 * refuse with a 415.
 */
function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      done(null, decodeJsonObject(body.toString()));
    });
  }
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, UNSUPPORTED_BODY);
  });
}

function decodeJsonObject(text: string): Record<string, unknown> {
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // Laravel's json() bag of an undecodable body is simply empty.
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Laravel's Request::bearerToken(), when it is a known token. */
function authenticate(
  request: FastifyRequest,
  tokens: ReadonlyMap<string, string>,
): { token: string; org: string } | null {
  const header = request.headers.authorization ?? '';
  const position = header.lastIndexOf('Bearer ');
  if (position === -1) return null;
  const token = header.slice(position + 7).split(',')[0] ?? '';
  const org = tokens.get(token);
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
