import type { FastifyInstance } from 'fastify';

import { methodNotAllowed, POST_TOO_LARGE, routeNotFound, SERVER_ERROR } from '../laravel.js';
import { sendMessage } from '../reply.js';
import { otherMethods } from '../routes-table.js';

/**
 * What Laravel answers when no route does: a 404 for an unknown path, a 405 with Allow for a
 * known path and another method (an OPTIONS gets the Allow alone), a 413 or a 500 for an error.
 */
export function registerFallbacks(app: FastifyInstance): void {
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
}
