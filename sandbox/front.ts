/**
 * What stands in front of Laravel, in the order a request meets it: the proxy's body limit,
 * Apache's trailing-slash rewrite, the injected faults, PHP's post_max_size.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { FastifyInstance } from 'fastify';

import { FaultPlan } from './faults.js';
import { apacheMovedPage, NGINX_413_PAGE, POST_TOO_LARGE, SERVICE_UNAVAILABLE } from './laravel.js';
import type { SandboxOptions } from './options.js';
import { resetConnection, sendMessage } from './reply.js';
import type { RequestLog } from './request-log.js';

/** `shutdown` ends the injected delays at once when the sandbox closes. */
export function registerFrontHooks(
  app: FastifyInstance,
  options: SandboxOptions,
  requests: RequestLog,
  shutdown: AbortSignal,
): void {
  const faults = new FaultPlan(options.faults);
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
