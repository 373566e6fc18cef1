import type { FastifyReply, FastifyRequest } from 'fastify';

import { SERVER_ERROR } from './laravel.js';
import { phpJson } from './php-json.js';

/** Headers every Laravel response carries. */
const LARAVEL_HEADERS = { 'cache-control': 'no-cache, private' } as const;

/** Sends pre-encoded JSON text (used where the body must repeat a key). */
export function sendJsonText(
  reply: FastifyReply,
  status: number,
  text: string,
  headers: Record<string, string | number> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({ ...LARAVEL_HEADERS, ...headers, 'content-type': 'application/json' })
    .send(Buffer.from(text)); // bytes, so Fastify leaves the media type as Laravel writes it
}

export function sendJson(
  reply: FastifyReply,
  status: number,
  value: unknown,
  headers: Record<string, string | number> = {},
): FastifyReply {
  return sendJsonText(reply, status, phpJson(value), headers);
}

/** Laravel's rendering of an HTTP exception: `{"message": …}`. */
export function sendMessage(
  reply: FastifyReply,
  status: number,
  message: string,
  headers: Record<string, string | number> = {},
): FastifyReply {
  return sendJson(reply, status, { message }, headers);
}

/**
 * Drops the connection with a TCP reset and no answer: what a crashed worker or a dropped
 * connection looks like to the client.
 */
export function resetConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  request.raw.socket.resetAndDestroy();
  return reply;
}

/**
 * Answers a create whose record is already stored, unless an injected fault says the client
 * never hears of it (reset) or hears a 500: the outcomes a client cannot tell apart from failure.
 */
export function answerCreated(
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
): FastifyReply {
  const after = request.fault?.after ?? 'none';
  if (after === 'reset') return resetConnection(request, reply);
  if (after === '500') return sendMessage(reply, 500, SERVER_ERROR);
  return sendJson(reply, 201, body);
}
