import type { FastifyInstance } from 'fastify';

import type { OrderedProduct } from '../fields.js';
import { modelNotFound, ORDER_MODEL, validationBody } from '../laravel.js';
import { cleanInput, validateOrder } from '../order-rules.js';
import { orderResponseText } from '../order-view.js';
import { answerCreated, sendJson, sendJsonText, sendMessage } from '../reply.js';
import { recordId, type SandboxContext, UNSUPPORTED_BODY } from './context.js';

export function orderRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  api.post('/api/orders', async (request, reply) => {
    if (request.body === UNSUPPORTED_BODY) {
      return sendMessage(
        reply,
        415,
        'Orders must be sent as JSON (Content-Type: application/json).',
      );
    }
    const body = cleanInput(request.body ?? {}) as Record<string, unknown>;
    const result = validateOrder(body, ctx.rules);
    if (!result.ok) return sendJson(reply, 422, validationBody(result.errors));
    const products = (result.fields.order_products as OrderedProduct[]).map((p) => ({
      id: p.id,
      name: ctx.products.get(p.id)?.name ?? p.id,
    }));
    const order = ctx.store.createOrder(request.org, result.fields, products);
    return answerCreated(request, reply, {
      id: order.id,
      inspections: order.inspections.map((i) => ({ id: i.id, product_id: i.product_id })),
    });
  });

  api.get<{ Params: { id: string } }>('/api/orders/:id', async (request, reply) => {
    const id = recordId(request.params.id);
    const order = id === null ? undefined : ctx.store.getOrder(request.org, id);
    if (!order) return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, request.params.id));
    return sendJsonText(reply, 200, orderResponseText(ctx.planned(order), ctx.options.quirks));
  });
}
