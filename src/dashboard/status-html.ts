/**
 * A sheet's orders as HTML, from its status.csv: the summary the overview and the sheet's facts
 * show (orders by status, the next inspection, when it was checked), and each row's order. Every
 * text of the file is the API's or a user's, and the file itself may have been changed on disk:
 * all of it goes through `shown`.
 */
import { count, shown, timeElement } from './html.js';
import type { Inspection } from '../status/read-order.js';
import type { OrderLine, StatusSummary } from './order-status.js';
import type { OrdersSeen } from './status-cache.js';

/** Why a status.csv is not shown, in the page's words. */
export function statusProblem(error: Error): string {
  return `<span class="bad status-problem">status.csv could not be read: ${shown(error.message)}</span>`;
}

/** A sheet's orders in a few lines; nothing for a sheet without status.csv. */
export function ordersSummary(seen: OrdersSeen): string {
  if (seen === undefined) return '';
  if (seen instanceof Error) return statusProblem(seen);
  const { summary, next } = seen;
  const ahead =
    next === undefined
      ? '<div class="note">no inspection ahead</div>'
      : `<div class="note">next inspection <span class="next-inspection">${shown(next)}</span></div>`;
  const checked =
    summary.checkedAt === undefined
      ? ''
      : `<div class="note">checked ${timeElement(summary.checkedAt)}</div>`;
  return `<div class="orders">${statusCounts(summary)}</div>${ahead}${checked}`;
}

/** `12 scheduled · 2 cancelled · 1 not found`, counted per order. */
export function statusCounts(summary: StatusSummary): string {
  if (summary.orders === 0) return 'no orders';
  const parts = summary.byStatus.map(
    ({ status, orders }) => `${count(orders)} ${shown(status === '' ? '(no status)' : status)}`,
  );
  const { orders, statuses } = summary.others;
  if (statuses > 0) parts.push(`${count(orders)} of ${count(statuses)} other statuses`);
  return parts.join(' · ');
}

/** A row's order cell: its status, why it was cancelled, and each inspection. */
export function orderCell(order: OrderLine | undefined): string {
  if (order === undefined) return '<td class="text order-status"></td>';
  const status = `<span class="order-state" data-order-status="${shown(order.status.trim().toLowerCase())}">${shown(order.status)}</span>`;
  const reason =
    order.cancelReason === ''
      ? ''
      : `<div class="note cancel-reason">${shown(order.cancelReason)}</div>`;
  const items = order.inspections.map((i) => `<li>${inspectionText(i)}</li>`);
  if (order.moreInspections > 0) {
    items.push(`<li class="note">and ${count(order.moreInspections)} more</li>`);
  }
  const list = items.length === 0 ? '' : `<ul class="inspections">${items.join('')}</ul>`;
  return `<td class="text order-status">${status}${reason}${list}</td>`;
}

function inspectionText(inspection: Inspection): string {
  const product =
    inspection.productName === ''
      ? shown(inspection.productId)
      : `${shown(inspection.productName)}${inspection.productId === '' ? '' : ` <span class="note">(${shown(inspection.productId)})</span>`}`;
  const date =
    inspection.date === ''
      ? '<span class="note">not planned yet</span>'
      : `<span class="inspection-date">${shown(inspection.date)}</span>`;
  const inspector =
    inspection.inspector === ''
      ? '<span class="note">no inspector yet</span>'
      : `<span class="inspector">${shown(inspection.inspector)}</span>`;
  return `${product} · ${date} · ${inspector}`;
}
