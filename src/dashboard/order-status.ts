/**
 * What a sheet's status.csv says of its orders, as the dashboard shows it: per sheet, its orders
 * counted by status and the next inspection (the overview, the sheet's facts), and per row, its
 * order's status and inspections (the sheet's rows). Counted per order, not per line: an order
 * with three inspections has three lines.
 *
 * Inspection dates are the API's own wall-clock times (`YYYY-MM-DD HH:MM:SS`, no zone): they are
 * compared with the dashboard machine's own wall clock, in its time zone (TZ).
 */
import type { Inspection } from '../status/read-order.js';
import { eachStatusLine, STATUS_LIMITS, type StatusLimits, type StatusLine } from './status-csv.js';

/** Statuses shown by name, the most frequent first; the rest are counted together. */
const SHOWN_STATUSES = 8;
/** Upcoming dates kept per sheet: when all have passed and there were more, it is read again. */
export const UPCOMING_KEPT = 32;
/** Inspections shown per order. */
const SHOWN_INSPECTIONS = 20;

/** The orders of an order status (as the API says it, verbatim) in one sheet. */
export interface StatusCount {
  status: string;
  orders: number;
}

export interface StatusSummary {
  orders: number;
  /** At most SHOWN_STATUSES, the most orders first. */
  byStatus: StatusCount[];
  /** Orders of the statuses beyond those, and how many statuses that is. */
  others: { orders: number; statuses: number };
  /** The earliest inspection dates, not past when it was read, of orders still on; sorted. */
  upcoming: string[];
  /** Whether later dates than the UPCOMING_KEPT kept were left out. */
  moreUpcoming: boolean;
  /** When the latest of its orders was read from the API (ISO 8601), if said. */
  checkedAt?: string;
  /** Whether its lines run in row order: a reader of some rows can stop past the last. */
  inRowOrder: boolean;
}

/** A row's order as status.csv says it. */
export interface OrderLine {
  row: number;
  orderId: string;
  status: string;
  cancelReason: string;
  /** At most SHOWN_INSPECTIONS. */
  inspections: Inspection[];
  /** Inspections beyond those. */
  moreInspections: number;
}

/** How the API's dates are written; anything else is no date. */
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** An instant as the machine's wall clock, written as the API writes its dates. */
export function wallClock(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${String(at.getFullYear()).padStart(4, '0')}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${date} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

/** Statuses whose orders have no inspection to come, whatever dates they carry. */
const OVER = new Set(['cancelled', 'canceled', 'not found', 'done']);

/** Whether an order of this status still has inspections to come. */
export function stillOn(status: string): boolean {
  return !OVER.has(status.trim().toLowerCase());
}

/** The summary of the folder's status.csv, read whole; undefined when it has none. */
export async function summariseStatus(
  reportDir: string,
  now: string,
  limits: StatusLimits = STATUS_LIMITS,
): Promise<StatusSummary | undefined> {
  const statusOf = new Map<string, string>();
  const upcoming = new Upcoming(UPCOMING_KEPT);
  let checkedAt: { text: string; at: number } | undefined;
  let lastRow = 0;
  let inRowOrder = true;
  const found = await eachStatusLine(
    reportDir,
    (line) => {
      if (line.row < lastRow) inRowOrder = false;
      lastRow = line.row;
      const at = Date.parse(line.checkedAt);
      if (!Number.isNaN(at) && (checkedAt === undefined || at > checkedAt.at)) {
        checkedAt = { text: line.checkedAt, at };
      }
      if (line.orderId === '') return 'more';
      if (!statusOf.has(line.orderId)) statusOf.set(line.orderId, line.orderStatus);
      const date = line.inspectionDate.trim();
      if (stillOn(line.orderStatus) && WALL_CLOCK.test(date) && date >= now) upcoming.add(date);
      return 'more';
    },
    limits,
  );
  if (!found) return undefined;
  const when = checkedAt as { text: string } | undefined;
  return {
    ...countByStatus(statusOf.values()),
    orders: statusOf.size,
    upcoming: upcoming.dates,
    moreUpcoming: upcoming.more,
    ...(when !== undefined && { checkedAt: when.text }),
    inRowOrder,
  };
}

function countByStatus(statuses: Iterable<string>): Pick<StatusSummary, 'byStatus' | 'others'> {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const sorted = [...counts]
    .map(([status, orders]) => ({ status, orders }))
    .sort((a, b) => b.orders - a.orders || a.status.localeCompare(b.status));
  const rest = sorted.slice(SHOWN_STATUSES);
  return {
    byStatus: sorted.slice(0, SHOWN_STATUSES),
    others: { orders: rest.reduce((n, s) => n + s.orders, 0), statuses: rest.length },
  };
}

/** The earliest `size` distinct dates added, and whether later ones were left out. */
class Upcoming {
  readonly dates: string[] = [];
  more = false;

  constructor(private readonly size: number) {}

  add(date: string): void {
    const last = this.dates.at(-1);
    if (this.dates.length >= this.size && last !== undefined && date >= last) {
      if (date !== last) this.more = true;
      return;
    }
    let i = this.dates.findIndex((d) => d >= date);
    if (i === -1) i = this.dates.length;
    if (this.dates[i] === date) return;
    this.dates.splice(i, 0, date);
    if (this.dates.length > this.size) {
      this.dates.pop();
      this.more = true;
    }
  }
}

/**
 * The next inspection not past at `now` (the machine's wall clock); `stale` when every date kept
 * has passed and there were more: the file must be read again to know.
 */
export function nextInspection(
  summary: StatusSummary,
  now: string,
): { next: string | undefined; stale: boolean } {
  const next = summary.upcoming.find((date) => date >= now);
  return { next, stale: next === undefined && summary.moreUpcoming };
}

/**
 * The orders of the given rows, by row, from the folder's status.csv. When its lines run in row
 * order, reading stops past the last row asked for.
 */
export async function ordersOfRows(
  reportDir: string,
  rows: readonly number[],
  inRowOrder: boolean,
  limits: StatusLimits = STATUS_LIMITS,
): Promise<Map<number, OrderLine>> {
  const wanted = new Set(rows);
  const last = Math.max(0, ...rows);
  const orders = new Map<number, OrderLine>();
  if (wanted.size === 0) return orders;
  await eachStatusLine(
    reportDir,
    (line) => {
      if (!wanted.has(line.row)) return inRowOrder && line.row > last ? 'enough' : 'more';
      let order = orders.get(line.row);
      if (order === undefined) {
        order = {
          row: line.row,
          orderId: line.orderId,
          status: line.orderStatus,
          cancelReason: line.cancelReason,
          inspections: [],
          moreInspections: 0,
        };
        orders.set(line.row, order);
      }
      addInspection(order, line);
      return 'more';
    },
    limits,
  );
  return orders;
}

function addInspection(order: OrderLine, line: StatusLine): void {
  const { productId, productName, inspectionDate, inspectorName } = line;
  // An order without inspections has one line, its inspection cells empty.
  if (productId === '' && productName === '' && inspectionDate === '' && inspectorName === '') {
    return;
  }
  if (order.inspections.length >= SHOWN_INSPECTIONS) {
    order.moreInspections += 1;
    return;
  }
  order.inspections.push({
    productId,
    productName,
    date: inspectionDate,
    inspector: inspectorName,
  });
}
