/**
 * Sandbox-only: `POST /__sandbox/orders/{id}/planning`, the planners changing their minds, so
 * that a client's status sync can be rehearsed on a visit moved, reassigned or cancelled: the
 * order as it reads now, with what the body gives (`status`, `cancel_reason`, and per inspection
 * in order `date` and `inspector_name`) stored over it; the planners leave it so from then on.
 */
import type { FastifyInstance } from 'fastify';

import { modelNotFound, ORDER_MODEL, validationBody } from '../laravel.js';
import { orderEntries } from '../order-view.js';
import { sendJson, sendMessage } from '../reply.js';
import type { StoredOrder } from '../store.js';
import { recordId, type SandboxContext } from './context.js';

type Errors = Record<string, string[]>;

function isOrder(plan: StoredOrder | Errors): plan is StoredOrder {
  return 'id' in plan && typeof plan.id === 'number';
}

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function text(
  value: unknown,
  field: string,
  errors: Errors,
  pattern?: RegExp,
): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (
    typeof value !== 'string' ||
    value.trim() === '' ||
    value.length > 255 ||
    (pattern !== undefined && !pattern.test(value))
  )
    errors[field] = [`The ${field.replace(/_/g, ' ')} field format is invalid.`];
  return typeof value === 'string' ? value : undefined;
}

/** The order with the body's plan over it, or the body's errors. */
export function replanned(order: StoredOrder, body: Record<string, unknown>): StoredOrder | Errors {
  const errors: Errors = {};
  const status = text(body.status, 'status', errors);
  if (body.status === null) errors.status = ['The status field must be a string.'];
  const reason = text(body.cancel_reason, 'cancel_reason', errors);
  const given = body.inspections ?? [];
  if (!Array.isArray(given) || given.length > order.inspections.length)
    errors.inspections = [
      `The inspections field must be a list of at most ${order.inspections.length} items.`,
    ];
  const list: unknown[] = Array.isArray(given) ? given : [];
  const inspections = order.inspections.map((inspection, i) => {
    const item: unknown = list[i];
    if (item === undefined) return inspection;
    const fields =
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const date = text(fields.date, `inspections.${i}.date`, errors, DATE);
    const inspector = text(fields.inspector_name, `inspections.${i}.inspector_name`, errors);
    return {
      ...inspection,
      ...(date !== undefined && { date }),
      ...(inspector !== undefined && { inspector_name: inspector }),
    };
  });
  if (Object.keys(errors).length > 0) return errors;
  return {
    ...order,
    ...(typeof status === 'string' && { status }),
    ...(reason !== undefined && { cancelReason: reason }),
    inspections,
  };
}

export function replanRoute(admin: FastifyInstance, ctx: SandboxContext): void {
  admin.post<{ Params: { id: string } }>(
    '/__sandbox/orders/:id/planning',
    async (request, reply) => {
      const id = recordId(request.params.id);
      const stored = id === null ? undefined : ctx.store.getOrder(request.org, id);
      if (stored === undefined)
        return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, request.params.id));
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const plan = replanned(ctx.planned(stored), body as Record<string, unknown>);
      if (!isOrder(plan)) return sendJson(reply, 422, validationBody(plan));
      ctx.store.storePlan(plan);
      return { data: Object.fromEntries(orderEntries(ctx.planned(plan), false)) };
    },
  );
}
