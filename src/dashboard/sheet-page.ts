/**
 * A sheet's own page (`/sheets/<sheetId>`): what the sheet is (its state, connection, times,
 * whether it repeats an earlier import, its warnings), then its rows a page at a time, filtered
 * by status, each with its reference, address, contact, error in plain words, order and files.
 * Rendered whole on the server, every text escaped; while the sheet runs the page's script
 * refreshes it.
 */
import { ROW_STATUSES, type RowStatus } from '../glossary.js';
import type { SheetDetail } from '../store/progress.js';
import { count, duration, escapeHtml, rowCells, shown, timeElement } from './html.js';
import { connectionCell, duplicateNote, paceLine, reportLinks, stateBadge } from './page.js';
import type { Pace } from './rate.js';
import type { OrderLine } from './order-status.js';
import type { ShownRow } from './report-csv.js';
import { PAGE_SIZE, type RowsPage, type RowsQuery } from './sheet-rows.js';
import type { PageOrders } from './status-cache.js';
import { orderCell, ordersSummary, statusProblem } from './status-html.js';

export interface SheetView {
  sheet: SheetDetail;
  /** The name of the sheet this one repeats, when known. */
  earlierName?: string;
  pace?: Pace;
  query: RowsQuery;
  /** The page's rows; an Error when they cannot be read now, undefined when there are none to read. */
  rows: RowsPage | Error | undefined;
  /** What its status.csv says of its orders, once it is reported. */
  orders?: PageOrders;
  now: Date;
}

/** The page's title and main part (frame.html's places). */
export function sheetPage(view: SheetView): { title: string; main: string } {
  const { sheet } = view;
  const live = sheet.state === 'done' ? '' : ' data-live';
  const main = [
    `<div id="sheet" data-part${live}>`,
    `<header class="title"><div class="name"><h1>${shown(sheet.name)}</h1>${stateBadge(sheet)}</div></header>`,
    facts(view),
    problems(sheet),
    statusFilter(sheet, view.query),
    rowsPart(view),
    '</div>',
  ].join('\n');
  return { title: `${shown(sheet.name)} · order-importer`, main };
}

function facts(view: SheetView): string {
  const { sheet, now } = view;
  const end = sheet.finishedAt === undefined ? now.getTime() : Date.parse(sheet.finishedAt);
  const items: Array<[string, string]> = [
    ['Connection', connectionCell(sheet)],
    ['Received', timeElement(sheet.startedAt)],
  ];
  if (sheet.finishedAt !== undefined) items.push(['Reported', timeElement(sheet.finishedAt)]);
  items.push(['Duration', duration(end - Date.parse(sheet.startedAt))]);
  const total = sheet.total === undefined ? '?' : count(sheet.total);
  items.push(['Rows', `${count(sheet.final)} of ${total} ended${paceLine(view.pace)}`]);
  if (sheet.duplicateOf !== undefined) {
    items.push(['Same content as', duplicateNote(sheet.duplicateOf, view.earlierName)]);
  }
  // Its files are on one data folder's disk: until it is reported, only that folder's workers
  // work it, and this is the folder it waits for.
  if (sheet.installation !== undefined && sheet.state !== 'done') {
    const folder = sheet.dataDir === undefined ? '' : `${shown(sheet.dataDir)} `;
    items.push([
      'Worked by',
      `workers of data folder ${folder}(installation ${shown(sheet.installation)})`,
    ]);
  }
  if (sheet.reportDir !== undefined) items.push(['Report', reportLinks(sheet)]);
  const orders = ordersSummary(view.orders?.seen);
  if (orders !== '') items.push(['Orders', orders]);
  const rows = items.map(([term, value]) => `<div><dt>${term}</dt><dd>${value}</dd></div>`);
  return `<dl class="facts">${rows.join('')}</dl>`;
}

/** Why the sheet could not be read, and what its import warned of. */
function problems(sheet: SheetDetail): string {
  const parts: string[] = [];
  if (sheet.error !== undefined) {
    parts.push(
      `<p class="bad" id="sheet-error">This sheet could not be read: ${shown(sheet.error)}</p>`,
    );
  }
  if (sheet.warnings.length > 0) {
    const items = sheet.warnings.map((w) => `<li>${shown(w)}</li>`).join('');
    parts.push(`<ul class="warnings">${items}</ul>`);
  }
  return parts.join('\n');
}

/** Links that show all rows or those of one status, with how many there are of each. */
function statusFilter(sheet: SheetDetail, query: RowsQuery): string {
  const choices: Array<[RowStatus | undefined, string, number | undefined]> = [
    [undefined, 'all', sheet.total],
    ...ROW_STATUSES.map((s): [RowStatus, string, number] => [s, s, sheet.counts[s]]),
  ];
  const links = choices.map(([status, label, n]) => {
    const href = status === undefined ? '?' : `?status=${status}`;
    const current = status === query.status ? ' aria-current="page"' : '';
    const shownCount = n === undefined ? '' : ` <span class="n">${count(n)}</span>`;
    return `<a href="${escapeHtml(href)}"${current}>${label}${shownCount}</a>`;
  });
  return `<nav class="filter" aria-label="Rows by status">${links.join('')}</nav>`;
}

function rowsPart(view: SheetView): string {
  const { rows, query } = view;
  if (rows instanceof Error) {
    return `<p class="bad">The rows cannot be read now: ${shown(rows.message)}</p>`;
  }
  if (rows === undefined) {
    const why =
      view.sheet.error === undefined
        ? 'Its rows are shown once they are counted.'
        : 'It has no rows to show.';
    return `<p class="sub">${why}</p>`;
  }
  const pages = Math.max(1, Math.ceil(rows.matching / PAGE_SIZE));
  const from = (query.page - 1) * PAGE_SIZE + 1;
  const to = from + rows.rows.length - 1;
  const which = query.status === undefined ? 'rows' : `${query.status} rows`;
  const said =
    rows.rows.length === 0
      ? `No ${which} here.`
      : `${which[0]?.toUpperCase() ?? ''}${which.slice(1)} ${count(from)}–${count(to)} of ${count(rows.matching)}.`;
  const note = rows.note === undefined ? '' : ` ${shown(rows.note)}`;
  return [
    `<p class="sub" id="rows-said">${said}${note}</p>`,
    rows.rows.length === 0 ? '' : rowsTable(rows.rows, view.orders?.rows),
    pageLinks(query, pages),
  ].join('\n');
}

/**
 * The rows, and with a status.csv read, a last column of each row's order as it was checked;
 * when those cannot be read, the page says so above the rows.
 */
function rowsTable(
  rows: readonly ShownRow[],
  orders: ReadonlyMap<number, OrderLine> | Error | undefined,
): string {
  const withOrders = orders !== undefined && !(orders instanceof Error);
  const head = `<thead><tr><th class="n">Row</th><th>Status</th><th>Reference</th><th>Address</th><th>Contact</th><th class="error">Error</th><th>Order</th><th>Files</th>${withOrders ? '<th>Order status</th>' : ''}</tr></thead>`;
  const lines = rows.map((row) => rowLine(row, withOrders ? orderCell(orders.get(row.row)) : ''));
  const problem = orders instanceof Error ? `<p>${statusProblem(orders)}</p>\n` : '';
  return `${problem}<table class="rows" id="rows">${head}<tbody>\n${lines.join('\n')}\n</tbody></table>`;
}

function rowLine(row: ShownRow, order: string): string {
  const first =
    row.sourceRow === '' ? '' : `<div class="note">first row ${shown(row.sourceRow)}</div>`;
  const files = row.fileIds.split('|').filter(Boolean).join(' ');
  return [
    `<tr id="row-${row.row}" data-row="${row.row}" data-status="${escapeHtml(row.status)}">`,
    `<td class="n">${row.row}${first}</td>`,
    ...rowCells(row),
    `<td class="text">${shown(files)}</td>`,
    order,
    '</tr>',
  ].join('');
}

/** Previous and next, keeping the status looked at. */
function pageLinks(query: RowsQuery, pages: number): string {
  if (pages <= 1) return '';
  const href = (page: number) =>
    escapeHtml(`?${query.status === undefined ? '' : `status=${query.status}&`}page=${page}`);
  const previous =
    query.page > 1 ? `<a href="${href(query.page - 1)}" rel="prev">‹ Previous</a>` : '';
  const next = query.page < pages ? `<a href="${href(query.page + 1)}" rel="next">Next ›</a>` : '';
  return `<nav class="pages" aria-label="Pages">${previous}<span>Page ${count(query.page)} of ${count(pages)}</span>${next}</nav>`;
}

/** The page of a sheet this dashboard does not know. */
export function unknownSheetPage(sheetId: string): { title: string; main: string } {
  return {
    title: 'No such sheet · order-importer',
    main: `<h1>No such sheet</h1>\n<p class="sub">No import here has the id “${shown(sheetId)}”. <a href="/">All imports</a></p>`,
  };
}

/** The page of a query this sheet's page does not take (a status not in the list, no page number). */
export function badQueryPage(sheetId: string): { title: string; main: string } {
  return {
    title: 'Not a page of this sheet · order-importer',
    main: `<h1>Not a page of this sheet</h1>\n<p class="sub">Its rows are shown by one status (${ROW_STATUSES.join(', ')}) and a page number from 1. <a href="/sheets/${encodeURIComponent(sheetId)}">All its rows</a></p>`,
  };
}
