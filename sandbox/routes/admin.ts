import type { FastifyInstance } from 'fastify';

import { modelNotFound, ORDER_MODEL, validationBody } from '../laravel.js';
import { orderEntries } from '../order-view.js';
import { sendJson, sendMessage } from '../reply.js';
import { validate, type RuleSet } from '../validator.js';
import { recordId, type SandboxContext } from './context.js';
import { replanRoute } from './replan.js';

/** Ten years: far enough for any rehearsal, near enough that dates stay ordinary. */
const CLOCK_RULES: RuleSet = [
  [
    'advanceDays',
    [
      { kind: 'required' },
      { kind: 'integer' },
      { kind: 'min', value: 1 },
      { kind: 'max', value: 3650 },
    ],
  ],
];

/**
 * Sandbox-only: the caller's organisation's orders with their files, so tests and rehearsals can
 * count what was really created (the real API has no listing), a way to delete one, so they
 * can meet an order that answers 404, and the sandbox's clock, to get past planned visits.
 */
export function adminRoutes(admin: FastifyInstance, ctx: SandboxContext): void {
  // What clients sent, when, and what they got: to check a client's manners from outside.
  admin.get('/__sandbox/requests', async () => ({ data: ctx.requests.list() }));
  // Which product ids the sandbox knows (the provider documents none).
  admin.get('/__sandbox/products', async () => ({ data: ctx.products.products }));

  admin.get('/__sandbox/orders', async (request) => ({
    data: ctx.store.listOrders(request.org).map((order) => ({
      ...Object.fromEntries(orderEntries(ctx.planned(order), false)),
      created_at: order.createdAt,
      files: ctx.store.listFiles(order.id).map((f) => ({
        id: f.id,
        collection_name: f.collection,
        file_name: f.fileName,
        mime_type: f.mimeType,
        size: f.size,
        sha256: f.sha256,
        created_at: f.createdAt,
      })),
    })),
  }));

  replanRoute(admin, ctx);
  admin.get('/__sandbox/clock', async () => ctx.clock.reading());
  admin.post('/__sandbox/clock', async (request, reply) => {
    const body = isObject(request.body) ? request.body : {};
    const errors = validate(body, CLOCK_RULES);
    if (Object.keys(errors).length > 0) return sendJson(reply, 422, validationBody(errors));
    return ctx.clock.advance(Number(body.advanceDays));
  });

  // The order goes with its inspections and files: all of them answer 404 afterwards.
  admin.delete<{ Params: { id: string } }>('/__sandbox/orders/:id', async (request, reply) => {
    const id = recordId(request.params.id);
    const removed = id === null ? undefined : ctx.store.deleteOrder(request.org, id);
    if (!removed) return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, request.params.id));
    await Promise.all(removed.blobKeys.map((key) => ctx.blobs.remove(key)));
    return reply.code(204).send();
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
