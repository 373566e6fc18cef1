/**
 * The orders of the rows a search found, as their sheets' status.csv files say them (through the
 * dashboard's StatusCache: a file read again only once it changed): each hit's order status and
 * next inspection, so that of several rows of one reference the current one is plain. The API's
 * statuses stay as it says them; its dates are written as the page writes dates.
 */
import type { Words } from '../language/words.js';
import { statusText } from '../notify/status-words.js';
import { say, shown } from './html.js';
import { type OrderLine, stillOn, wallClock } from './order-status.js';
import type { SearchHit } from './search.js';
import type { StatusCache } from './status-cache.js';
import { statusProblem } from './status-html.js';

/** By sheet: its rows' orders; undefined when it has no status.csv; an Error when unreadable. */
export type HitOrders = Map<string, Map<number, OrderLine> | Error | undefined>;

/** The orders of the hits' rows, one sheet's status.csv at a time. */
export async function ordersOfHits(
  hits: readonly SearchHit[],
  statuses: StatusCache,
  now: Date,
): Promise<HitOrders> {
  const rows = new Map<string, { reportDir: string; rows: number[] }>();
  for (const hit of hits) {
    const sheet = rows.get(hit.sheetId) ?? { reportDir: hit.reportDir, rows: [] };
    sheet.rows.push(hit.row.row);
    rows.set(hit.sheetId, sheet);
  }
  const orders: HitOrders = new Map();
  for (const [sheetId, sheet] of rows) {
    const page = await statuses.page(sheet.reportDir, sheet.rows, now);
    orders.set(sheetId, page.seen instanceof Error ? page.seen : page.rows);
  }
  return orders;
}

/** A hit's two cells: its order's status, and its next inspection. */
export function hitOrderCells(words: Words, orders: HitOrders, hit: SearchHit, now: Date): string {
  const sheet = orders.get(hit.sheetId);
  if (sheet instanceof Error) {
    return `<td class="text hit-order-status">${statusProblem(words, sheet)}</td><td class="hit-next"></td>`;
  }
  const order = sheet?.get(hit.row.row);
  if (order === undefined) {
    const note = `<span class="note">${say(words, 'dashboard.search.notRead')}</span>`;
    return `<td class="text hit-order-status">${note}</td><td class="hit-next"></td>`;
  }
  const status = `<span class="order-state" data-order-status="${shown(order.status.trim().toLowerCase())}">${shown(statusText(words, order.status))}</span>`;
  return `<td class="text hit-order-status">${status}</td><td class="hit-next">${nextOf(words, order, now)}</td>`;
}

/**
 * The order's earliest inspection not past; for one still on without any, whether some are not
 * planned yet or none is ahead. Nothing for an order that is over (cancelled, done, not found).
 */
function nextOf(words: Words, order: OrderLine, now: Date): string {
  if (!stillOn(order.status)) return '';
  const wall = wallClock(now);
  const dates = order.inspections.map((i) => i.date.trim());
  const ahead = dates.filter((date) => API_DATE.test(date) && date >= wall).sort();
  const next = ahead[0];
  if (next !== undefined)
    return `<span class="inspection-date">${shown(words.wallClock(next))}</span>`;
  const unplanned = dates.some((date) => date === '') || dates.length === 0;
  const key = unplanned ? 'dashboard.orders.notPlanned' : 'dashboard.orders.noneAhead';
  return `<span class="note">${say(words, key)}</span>`;
}

/** How the API writes its dates; anything else is no date. */
const API_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
