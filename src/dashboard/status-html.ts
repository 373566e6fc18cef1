/**
 * A sheet's orders as HTML, from its status.csv: the summary the overview and the sheet's facts
 * show (orders by status, the next inspection, when it was checked), and each row's order. Every
 * text of the file is the API's or a user's, and the file itself may have been changed on disk:
 * all of it goes through `shown`, and the API's words (statuses, products) stay as it says them.
 */
import type { Words } from '../language/words.js';
import { cellLabel, count, data, markup, say, shown, timeElement } from './html.js';
import { statusText } from '../notify/status-words.js';
import type { Inspection } from '../status/read-order.js';
import type { OrderLine, StatusSummary } from './order-status.js';
import type { OrdersSeen, PageOrders } from './status-cache.js';

/** What a sheet's page shows of its orders (status-cache.ts reads them). */
export type { PageOrders };

/** Why a status.csv is not shown, in the page's words. */
export function statusProblem(words: Words, error: Error): string {
  const said = say(words, 'dashboard.orders.unreadable', { reason: data(error.message) });
  return `<span class="bad status-problem">${said}</span>`;
}

/** An inspection time as the API gives it (Belgian wall clock), as the language writes it. */
function wallClock(words: Words, text: string): string {
  return shown(words.wallClock(text));
}

/** A sheet's orders in a few lines; nothing for a sheet without status.csv. */
export function ordersSummary(words: Words, seen: OrdersSeen): string {
  if (seen === undefined) return '';
  if (seen instanceof Error) return statusProblem(words, seen);
  const { summary, next } = seen;
  const ahead =
    next === undefined
      ? say(words, 'dashboard.orders.noneAhead')
      : say(words, 'dashboard.orders.nextInspection', {
          date: markup(`<span class="next-inspection">${wallClock(words, next)}</span>`),
        });
  const checked =
    summary.checkedAt === undefined
      ? ''
      : `<div class="note">${say(words, 'dashboard.orders.checked', { time: markup(timeElement(words, summary.checkedAt)) })}</div>`;
  return `<div class="orders">${statusCounts(words, summary)}</div><div class="note">${ahead}</div>${checked}`;
}

/** `12 scheduled · 2 cancelled · 1 not found`, counted per order, the API's statuses as it says them, the importer's own in the page's words. */
export function statusCounts(words: Words, summary: StatusSummary): string {
  if (summary.orders === 0) return say(words, 'dashboard.orders.none');
  const parts = summary.byStatus.map(({ status, orders }) =>
    say(words, 'dashboard.orders.ofStatus', {
      count: markup(count(words, orders)),
      status: markup(
        status === '' ? say(words, 'dashboard.orders.noStatus') : shown(statusText(words, status)),
      ),
    }),
  );
  const { orders, statuses } = summary.others;
  if (statuses > 0) {
    parts.push(
      say(words, 'dashboard.orders.others', { orders: markup(count(words, orders)), statuses }),
    );
  }
  return parts.join(' · ');
}

/** A row's order cell: its status, why it was cancelled, and each inspection. */
export function orderCell(words: Words, order: OrderLine | undefined): string {
  const label = cellLabel(words, 'dashboard.head.orderStatus');
  if (order === undefined) return `<td class="text order-status"${label}></td>`;
  const status = `<span class="order-state" data-order-status="${shown(order.status.trim().toLowerCase())}">${shown(statusText(words, order.status))}</span>`;
  const reason =
    order.cancelReason === ''
      ? ''
      : `<div class="note cancel-reason">${shown(order.cancelReason)}</div>`;
  const items = order.inspections.map((i) => `<li>${inspectionText(words, i)}</li>`);
  if (order.moreInspections > 0) {
    const more = say(words, 'dashboard.orders.more', {
      count: markup(count(words, order.moreInspections)),
    });
    items.push(`<li class="note">${more}</li>`);
  }
  const list = items.length === 0 ? '' : `<ul class="inspections">${items.join('')}</ul>`;
  return `<td class="text order-status"${label}>${status}${reason}${list}</td>`;
}

function inspectionText(words: Words, inspection: Inspection): string {
  const product =
    inspection.productName === ''
      ? shown(inspection.productId)
      : `${shown(inspection.productName)}${inspection.productId === '' ? '' : ` <span class="note">(${shown(inspection.productId)})</span>`}`;
  const date =
    inspection.date === ''
      ? `<span class="note">${say(words, 'dashboard.orders.notPlanned')}</span>`
      : `<span class="inspection-date">${wallClock(words, inspection.date)}</span>`;
  const inspector =
    inspection.inspector === ''
      ? `<span class="note">${say(words, 'dashboard.orders.noInspector')}</span>`
      : `<span class="inspector">${shown(inspection.inspector)}</span>`;
  return `${product} · ${date} · ${inspector}`;
}
