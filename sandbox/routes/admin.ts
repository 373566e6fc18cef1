import type { FastifyInstance } from 'fastify';

import { modelNotFound, ORDER_MODEL } from '../laravel.js';
import { orderEntries } from '../order-view.js';
import { sendMessage } from '../reply.js';
import { recordId, type SandboxContext } from './context.js';

/**
 * Sandbox-only: the caller's organisation's orders with their files, so tests and rehearsals can
 * count what was really created (the real API has no listing), and a way to delete one, so they
 * can meet an order that answers 404.
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

  // The order goes with its inspections and files: all of them answer 404 afterwards.
  admin.delete<{ Params: { id: string } }>('/__sandbox/orders/:id', async (request, reply) => {
    const id = recordId(request.params.id);
    const removed = id === null ? undefined : ctx.store.deleteOrder(request.org, id);
    if (!removed) return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, request.params.id));
    await Promise.all(removed.blobKeys.map((key) => ctx.blobs.remove(key)));
    return reply.code(204).send();
  });
}
