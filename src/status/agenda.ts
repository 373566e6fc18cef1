/**
 * What the status stage keeps for the agenda (docs/design.md "The agenda"): each inspection of
 * each order read back, with its order's address, contact and phone, into the agenda's store,
 * which the dashboard's /agenda and calendar feeds read.
 */
import { basename } from 'node:path';

import type { Context } from '../context.js';
import { STATUS_DAYS } from '../policy.js';
import { type ReadEntry, recordAgenda } from '../store/agenda.js';
import type { OrderReading, OrderState } from './read-order.js';
import type { ReportedOrder, ReportedSheet } from './report-folder.js';

const DAY_MS = 86_400_000;

export interface OrderContact {
  address: string;
  contact: string;
  phone: string;
}

/** Where and with whom: the API's answer now, else what the row's report line echoed. */
export function contactOf(state: OrderState, order: ReportedOrder): OrderContact {
  return {
    address: state.address === '' ? order.address : state.address,
    contact: state.contactName === '' ? order.contactName : state.contactName,
    phone: state.phone,
  };
}

/** Where an order's entries come from: its office, sheet and row. */
export type EntryBase = Pick<
  ReadEntry,
  'office' | 'sheetId' | 'sheetName' | 'row' | 'reference' | 'orderId' | 'checkedAt'
>;

/**
 * An order's inspections as agenda entries, each with a UID stable across syncs: the order, the
 * product and which of that product's inspections in the order it is (from 1).
 */
export function entriesOf(base: EntryBase, state: OrderState, contact: OrderContact): ReadEntry[] {
  const seen = new Map<string, number>();
  return state.inspections.map((inspection) => {
    const k = (seen.get(inspection.productId) ?? 0) + 1;
    seen.set(inspection.productId, k);
    return {
      ...base,
      ...contact,
      uid: `${base.orderId}-${inspection.productId}-${k}`,
      productId: inspection.productId,
      productName: inspection.productName,
      date: inspection.date,
      inspector: inspection.inspector,
      status: state.status,
    };
  });
}

/** The sheet's name, as its report folder (`<name>-<sheetId>`) says it. */
export function sheetNameOf(sheet: Pick<ReportedSheet, 'dir' | 'sheetId'>): string {
  const folder = basename(sheet.dir);
  const suffix = `-${sheet.sheetId}`;
  return folder.endsWith(suffix) ? folder.slice(0, -suffix.length) : folder;
}

/** Keeps every inspection of the orders read now; an order not read now keeps what it had. */
export async function keepAgenda(
  ctx: Context,
  sheet: ReportedSheet,
  orders: readonly ReportedOrder[],
  readings: readonly (OrderReading | undefined)[],
  checkedAt: string,
): Promise<void> {
  const entries: ReadEntry[] = [];
  const sheetName = sheetNameOf(sheet);
  for (const [i, order] of orders.entries()) {
    const reading = readings[i];
    if (reading?.kind !== 'read') continue;
    const base = {
      office: ctx.connection.name,
      sheetId: sheet.sheetId,
      sheetName,
      row: order.row,
      reference: order.reference,
      orderId: order.orderId,
      checkedAt,
    };
    entries.push(...entriesOf(base, reading.state, contactOf(reading.state, order)));
  }
  const days = ctx.settings.statusDays ?? STATUS_DAYS;
  await recordAgenda(ctx.redis, ctx.keys, ctx.connection.id, entries, ctx.now() - days * DAY_MS);
}
