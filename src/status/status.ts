/**
 * report → **status**: reads back every order a reported sheet made and writes its status.csv
 * (docs/design.md §2 "Status of imported orders"). Only with the context of the connection the
 * sheet was imported through: another connection's token never reads its orders. Returns what
 * changed since the previous status.csv, for whoever tells people (notifications).
 */
import { basename } from 'node:path';

import type { Context } from '../context.js';
import type { ChangedOrder, OrderSnapshot } from '../notify/events.js';
import { queueNotification } from '../notify/queue-notification.js';
import { NOT_FOUND } from '../notify/status-words.js';
import { keepAgenda } from './agenda.js';
import { type OrderReading, readOrder } from './read-order.js';
import { readReportedOrders, type ReportedOrder, type ReportedSheet } from './report-folder.js';
import { readStatusLines, type StatusLine, writeStatusCsv } from './status-csv.js';
import { isKnown, UserError } from '../errors.js';

export interface SheetStatus {
  sheetId: string;
  reportDir: string;
  orders: number;
  /** Orders by their status (an order never read yet is in none). */
  byStatus: Record<string, number>;
  changed: number;
  changedOrders: ChangedOrder[];
  /** The notify jobs of its `orders.changed` (none: nothing changed, or no channel is set). */
  notifications: string[];
  /** Orders that could not be read now: their previous lines are kept. */
  unreadable: number;
  unreadableOrders: Array<{ row: number; order_id: number; reason: string }>;
  /** Every order was final (STATUS_FINAL) already: nothing was read, status.csv is unchanged. */
  skipped: boolean;
}

export interface StatusOptions {
  /** A sheet whose orders are all final (STATUS_FINAL) is not read again. */
  skipFinal?: boolean;
  /** Told after each order read. */
  onProgress?: (done: number, total: number) => void;
}

/** What a new order is before anything happens to it: the state a first run compares with. */
const NEW_STATUS = 'to schedule';
export const DEFAULT_FINAL = ['cancelled', 'done'];

/** Reads back one sheet's orders and writes its status.csv. */
export async function refreshSheetStatus(
  ctx: Context,
  sheet: ReportedSheet,
  options: StatusOptions = {},
): Promise<SheetStatus> {
  if (sheet.connectionId !== ctx.connection.id) {
    throw new UserError(
      'report-folder.unusable',
      `sheet ${sheet.sheetId} was imported through connection ${sheet.connectionName ?? sheet.connectionId ?? '(none named)'}, not "${ctx.connection.name}": its orders are read only with its own connection's token.`,
    );
  }
  const { delimiter, orders } = await readReportedOrders(sheet.dir);
  const previous = await previousLines(ctx, sheet.dir);
  const final = new Set(ctx.settings.statusFinal ?? DEFAULT_FINAL);
  if (options.skipFinal === true && allFinal(orders, previous, final)) {
    const kept = orders.map((order) => previous.get(String(order.orderId)) ?? []);
    return { ...outcomeOf(sheet, orders.length, kept, [], []), notifications: [], skipped: true };
  }
  const readings = await readAll(ctx, orders, options.onProgress);
  const checkedAt = new Date(ctx.now()).toISOString();
  const written: StatusLine[][] = [];
  const changed: ChangedOrder[] = [];
  const unreadable: SheetStatus['unreadableOrders'] = [];
  for (const [i, order] of orders.entries()) {
    const reading = readings[i] ?? { kind: 'unreadable', reason: 'not read' };
    const before = previous.get(String(order.orderId));
    if (reading.kind === 'unreadable') {
      unreadable.push({ row: order.row, order_id: order.orderId, reason: reading.reason });
      written.push(before?.map((line) => addressed(line, order)) ?? [blankLine(order, '', '')]);
      continue;
    }
    const lines = linesOf(order, reading, checkedAt);
    written.push(lines);
    const change = changeOf(order, before, lines);
    if (change !== undefined) changed.push(change);
  }
  // Told before status.csv moves on: a crash in between finds the same changes against the same
  // previous status.csv again, and they make the same event.
  let notifications: string[] = [];
  if (changed.length > 0) {
    const folder = basename(sheet.dir);
    const suffix = `-${sheet.sheetId}`;
    const sheetName = folder.endsWith(suffix) ? folder.slice(0, -suffix.length) : folder;
    notifications = await queueNotification(ctx, {
      kind: 'orders.changed',
      sheetId: sheet.sheetId,
      sheet: sheetName,
      since: latestCheck(previous),
      orders: changed,
    });
  }
  await keepAgenda(ctx, sheet, orders, readings, checkedAt);
  await writeStatusCsv(ctx.words, sheet.dir, written.flat(), delimiter);
  ctx.logger.info(
    {
      sheetId: sheet.sheetId,
      orders: orders.length,
      changed: changed.length,
      unreadable: unreadable.length,
    },
    'status read back',
  );
  const outcome = outcomeOf(sheet, orders.length, written, changed, unreadable);
  return { ...outcome, notifications, skipped: false };
}

/** When the previous status.csv was written (its latest check); empty when there is none. */
function latestCheck(previous: ReadonlyMap<string, StatusLine[]>): string {
  let latest = '';
  for (const lines of previous.values())
    for (const line of lines) if (line.checked_at > latest) latest = line.checked_at;
  return latest;
}

/** The previous status.csv's lines; none when there is none, or it cannot be read (said). */
async function previousLines(ctx: Context, dir: string): Promise<Map<string, StatusLine[]>> {
  try {
    return (await readStatusLines(dir)) ?? new Map();
  } catch (error) {
    if (!isKnown(error, 'report-folder.unusable')) throw error;
    ctx.logger.warn({ reportDir: dir, reason: error.message }, 'previous status.csv ignored');
    return new Map();
  }
}

function allFinal(
  orders: readonly ReportedOrder[],
  previous: ReadonlyMap<string, StatusLine[]>,
  final: ReadonlySet<string>,
): boolean {
  return orders.every((order) => {
    const lines = previous.get(String(order.orderId)) ?? [];
    return lines.length > 0 && lines.every((line) => final.has(line.order_status));
  });
}

/** Reads the orders a few at a time (the pace spaces them); the readings in the orders' order. */
async function readAll(
  ctx: Context,
  orders: readonly ReportedOrder[],
  onProgress: StatusOptions['onProgress'],
): Promise<OrderReading[]> {
  const readings: OrderReading[] = new Array<OrderReading>(orders.length);
  // Once the API asks for a long wait, the orders not read yet are left to the next run.
  const held = new AbortController();
  let next = 0;
  let done = 0;
  const reader = async () => {
    for (let i = next++; i < orders.length; i = next++) {
      const order = orders[i];
      if (order === undefined) continue;
      readings[i] = await readOrder(ctx, order.orderId, held);
      done += 1;
      onProgress?.(done, orders.length);
    }
  };
  const width = Math.max(1, Math.min(ctx.settings.concurrency, 8, orders.length));
  await Promise.all(Array.from({ length: width }, reader));
  return readings;
}

/**
 * A line kept from the previous status.csv, with the address and contact of its report when it
 * has none (a status.csv written before it had them).
 */
function addressed(line: StatusLine, order: ReportedOrder): StatusLine {
  if (line.address !== '' || line.contact_name !== '') return line;
  return { ...line, address: order.address, contact_name: order.contactName };
}

/**
 * An order's line with no inspection in it. Its address and contact are its report's (the row's
 * as imported) until the API answers with its own.
 */
function blankLine(order: ReportedOrder, status: string, checkedAt: string): StatusLine {
  return {
    row: String(order.row),
    reference: order.reference,
    order_id: String(order.orderId),
    order_status: status,
    cancel_reason: '',
    product_id: '',
    product_name: '',
    inspection_date: '',
    inspector_name: '',
    checked_at: checkedAt,
    address: order.address,
    contact_name: order.contactName,
  };
}

/** An order's lines: one per inspection, or one with no inspection fields. */
function linesOf(
  order: ReportedOrder,
  reading: Exclude<OrderReading, { kind: 'unreadable' }>,
  checkedAt: string,
): StatusLine[] {
  if (reading.kind === 'not-found') return [blankLine(order, NOT_FOUND, checkedAt)];
  const { status, cancelReason, inspections, address, contactName } = reading.state;
  // Where the visit goes as the API has it now (the provider may have corrected it); the report's
  // when the answer says none. Neither counts as a change (changeOf compares no address).
  const base = {
    ...blankLine(order, status, checkedAt),
    cancel_reason: cancelReason,
    ...(address !== '' && { address }),
    ...(contactName !== '' && { contact_name: contactName }),
  };
  if (inspections.length === 0) return [base];
  return inspections.map((i) => ({
    ...base,
    product_id: i.productId,
    product_name: i.productName,
    inspection_date: i.date,
    inspector_name: i.inspector,
  }));
}

function snapshotOf(lines: readonly StatusLine[]): OrderSnapshot {
  const first = lines[0];
  return {
    order_status: first?.order_status ?? '',
    cancel_reason: first?.cancel_reason ?? '',
    inspections: lines
      .filter(
        (line) =>
          line.product_id !== '' || line.inspection_date !== '' || line.inspector_name !== '',
      )
      .map((line) => ({
        product_id: line.product_id,
        inspection_date: line.inspection_date,
        inspector_name: line.inspector_name,
      })),
  };
}

/**
 * Whether an order differs from its previous lines; without any, from a new order's state (`to
 * schedule`, no cancel reason, its inspections without date or inspector): a first run counts
 * the orders that already moved since they were made.
 */
function changeOf(
  order: ReportedOrder,
  before: readonly StatusLine[] | undefined,
  lines: readonly StatusLine[],
): ChangedOrder | undefined {
  const after = snapshotOf(lines);
  // A line with no status is an order never read yet: as good as none.
  const known = before !== undefined && before.length > 0 && before[0]?.order_status !== '';
  const was = known
    ? snapshotOf(before)
    : {
        order_status: NEW_STATUS,
        cancel_reason: '',
        inspections: after.inspections.map((i) => ({
          product_id: i.product_id,
          inspection_date: '',
          inspector_name: '',
        })),
      };
  if (JSON.stringify(was) === JSON.stringify(after)) return undefined;
  return {
    row: order.row,
    reference: order.reference,
    order_id: order.orderId,
    address: lines[0]?.address ?? order.address,
    before: known ? was : null,
    after,
  };
}

function outcomeOf(
  sheet: ReportedSheet,
  orders: number,
  lines: ReadonlyArray<readonly StatusLine[]>,
  changedOrders: ChangedOrder[],
  unreadableOrders: SheetStatus['unreadableOrders'],
): Omit<SheetStatus, 'skipped' | 'notifications'> {
  const byStatus: Record<string, number> = {};
  for (const order of lines) {
    const status = order[0]?.order_status ?? '';
    if (status !== '') byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  return {
    sheetId: sheet.sheetId,
    reportDir: sheet.dir,
    orders,
    byStatus,
    changed: changedOrders.length,
    changedOrders,
    unreadable: unreadableOrders.length,
    unreadableOrders,
  };
}
