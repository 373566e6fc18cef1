/**
 * Reading one order back (GET /api/orders/{id}), paced like the imports: its turn at the shared
 * schedule in Redis (store/pace.ts), a 429's Retry-After held by the whole fleet, what is safe to
 * retry retried a few times. The answer is checked before a value of it is used: an order whose
 * answer is not what the API documents is unreadable, never a crash.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { z } from 'zod';

import { ANSWER_TOO_LARGE, type RetrievedOrder } from '../api/client.js';
import { AbortedError, ApiError, apiAway } from '../api/errors.js';
import { type Context, stopSignals } from '../context.js';
import { addressLine } from '../orders/row-echo.js';
import { interruptibleWait } from '../stopping.js';
import { SHORTEST_HOLD_MS, STATUS_LONG_WAIT_MS, STATUS_ORDER_ATTEMPTS } from '../policy.js';
import { Refused } from '../errors.js';

/** A value of the API's, shown verbatim: text or a number, absent or null as nothing. */
const shown = z
  .union([z.string().max(2000), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

const inspectionSchema = z.looseObject({
  product_id: shown,
  product_name: shown,
  date: shown,
  inspector_name: shown,
});

/** A part of the order's address or contact: one that is no text is left out, never fatal. */
const part = shown.transform((v) => v.trim()).catch('');

/**
 * What `status` reads of a retrieved order: its status, why it was cancelled, its inspections,
 * and where and with whom the visit is (as the API has them now).
 */
const orderStatusSchema = z.looseObject({
  status: z.string().min(1).max(200),
  cancel_reason: shown,
  inspections: z.array(inspectionSchema).max(1000).nullish(),
  address1: part,
  address2: part,
  postal_code: part,
  city: part,
  contact_name: part,
  contact_phone1: part,
});

/** An inspection of an order, as the API says it and status.csv's line keeps it. */
export interface Inspection {
  productId: string;
  productName: string;
  /** `YYYY-MM-DD HH:MM:SS`, or empty until planned. */
  date: string;
  /** Empty until someone is assigned. */
  inspector: string;
}

export interface OrderState {
  status: string;
  cancelReason: string;
  inspections: Inspection[];
  /** `Kerkstraat 12, 9000 Gent`; empty when the answer has none. */
  address: string;
  contactName: string;
  /** The contact's phone, for the agenda (status.csv has no column for it). */
  phone: string;
}

export type OrderReading =
  | { kind: 'read'; state: OrderState }
  /** 404 (or 410): the API has no such order (any more) for this token. */
  | { kind: 'not-found' }
  /** Not readable now (away, busy, a body that is not an order): said, and tried at the next run. */
  | { kind: 'unreadable'; reason: string };

/** The state of a retrieved order, or why it is not one. */
export function orderStateOf(order: RetrievedOrder): OrderState | string {
  const parsed = orderStatusSchema.safeParse(order);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    return `its answer is not an order as the API documents it${where === '' ? '' : ` (${where})`}`;
  }
  const { status, cancel_reason, inspections, contact_name, contact_phone1 } = parsed.data;
  return {
    status,
    cancelReason: cancel_reason,
    address: addressLine(parsed.data),
    contactName: contact_name,
    phone: contact_phone1,
    inspections: (inspections ?? []).map((i) => ({
      productId: i.product_id,
      productName: i.product_name,
      date: i.date,
      inspector: i.inspector_name,
    })),
  };
}

/** What a person does when the API cannot be read at all, in English (the catalogue's too). */
const API_UNUSABLE = {
  auth: (reason: string) =>
    `The API refused the token (${reason}): check API_TOKEN / API_TOKEN_FILE, or the token file of the connection.`,
  config: (reason: string) =>
    `The API is not where the settings say (${reason}): check API_BASE_URL, or the apiBaseUrl of the connection.`,
};

/** Reads one order; a refused token or a wrong address is 'status.api-unusable'. */
export async function readOrder(
  ctx: Context,
  orderId: number,
  held: AbortController = new AbortController(),
): Promise<OrderReading> {
  let last = '';
  for (let attempt = 1; attempt <= STATUS_ORDER_ATTEMPTS; attempt++) {
    if (!(await turn(ctx, held.signal))) return { kind: 'unreadable', reason: heldReason(held) };
    try {
      const order = await ctx.api.getOrder(orderId, ctx.stop.now.signal);
      if (order.id !== orderId)
        return { kind: 'unreadable', reason: `its answer is of another order (${order.id})` };
      const state = orderStateOf(order);
      return typeof state === 'string'
        ? { kind: 'unreadable', reason: state }
        : { kind: 'read', state };
    } catch (error) {
      if (error instanceof AbortedError || !(error instanceof ApiError)) throw error;
      const { status, retryAfterMs } = error.details;
      if (status === 404 || status === 410) return { kind: 'not-found' };
      // A redirect elsewhere is this order's answer (not followed); other settings' faults are all.
      const redirected = status !== undefined && status >= 300 && status < 400;
      if (error.kind === 'auth' || (error.kind === 'config' && !redirected))
        throw new Refused('status.api-unusable', API_UNUSABLE[error.kind](error.message), {
          cause: error,
          variant: error.kind,
          values: { reason: error.message },
        });
      // A GET changes nothing: whatever may have been an answer lost is safe to ask again. An
      // answer too large to read would be as large again: this order is not read now.
      const tooLarge = error.details.code === ANSWER_TOO_LARGE;
      if (tooLarge || (!apiAway(error) && error.kind !== 'ambiguous'))
        return { kind: 'unreadable', reason: error.message };
      last = error.message;
      if (retryAfterMs !== undefined) {
        await ctx.pace.holdFor(Math.max(retryAfterMs, SHORTEST_HOLD_MS));
        // A long wait is not waited out by a run: it ends, saying so; the next run reads them.
        if (retryAfterMs >= STATUS_LONG_WAIT_MS) {
          held.abort(
            `the API asks to wait ${Math.round(retryAfterMs / 1000)} s (429): not read now, the next run reads it`,
          );
          return { kind: 'unreadable', reason: heldReason(held) };
        }
      } else if (attempt < STATUS_ORDER_ATTEMPTS)
        await pause(ctx, ctx.settings.retryDelayMs * 2 ** (attempt - 1));
    }
  }
  return { kind: 'unreadable', reason: last };
}

/** Its turn at the API, shared with every import of the connection. */
/** This order's turn on the shared schedule; false when the run stopped waiting (`held`). */
async function turn(ctx: Context, held: AbortSignal): Promise<boolean> {
  if (held.aborted) return false;
  if (ctx.pace.takeFreeTurn()) return true;
  try {
    await interruptibleWait(
      (signal) => ctx.pace.turn(signal === undefined ? held : AbortSignal.any([signal, held])),
      stopSignals(ctx),
    );
    return true;
  } catch (error) {
    // Aborted by this run (its reason set) rather than by a stop: the order is left for later.
    if (held.reason !== undefined && error instanceof Error && error.name === 'AbortError')
      return false;
    throw error;
  }
}

function heldReason(held: AbortController): string {
  return typeof held.signal.reason === 'string' ? held.signal.reason : 'not read now';
}

async function pause(ctx: Context, ms: number): Promise<void> {
  await interruptibleWait((signal) => sleep(ms, undefined, { signal }), stopSignals(ctx));
}
