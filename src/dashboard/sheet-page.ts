/**
 * A sheet's own page (`/sheets/<sheetId>`): what the sheet is (its state, connection, times,
 * whether it repeats an earlier import, its warnings), then its rows a page at a time, filtered
 * by status, each with its reference, address, contact, error in plain words, order and files.
 * Rendered whole on the server, every text escaped; while the sheet runs the page's script
 * refreshes it.
 */
import { ROW_STATUSES, type RowStatus } from '../glossary.js';
import type { MessageKey, Words } from '../language/words.js';
import type { SheetDetail } from '../store/progress.js';
import {
  count,
  data,
  duration,
  escapeHtml,
  markup,
  type Markup,
  rowCells,
  say,
  shown,
  statusWord,
  timeElement,
} from './html.js';
import { connectionCell, duplicateNote, paceLine, reportLinks, stateBadge } from './page.js';
import type { Pace } from './rate.js';
import type { OrderLine } from './order-status.js';
import type { ShownRow } from './report-csv.js';
import { PAGE_SIZE, type RowsNote, type RowsPage, type RowsQuery } from './sheet-rows.js';
import type { PageOrders } from './status-cache.js';
import { orderCell, ordersSummary, statusProblem } from './status-html.js';

export interface SheetView {
  words: Words;
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
  const { sheet, words } = view;
  const live = sheet.state === 'done' ? '' : ' data-live';
  const main = [
    `<div id="sheet" data-part${live}>`,
    `<header class="title"><div class="name"><h1>${shown(sheet.name)}</h1>${stateBadge(words, sheet)}</div></header>`,
    facts(view),
    problems(words, sheet),
    statusFilter(words, sheet, view.query),
    rowsPart(view),
    '</div>',
  ].join('\n');
  return { title: titled(words, data(sheet.name)), main };
}

/** A page's title: what it shows, and whose dashboard it is. */
export function titled(words: Words, page: Markup): string {
  return say(words, 'dashboard.title', { page });
}

function facts(view: SheetView): string {
  const { sheet, now, words } = view;
  const end = sheet.finishedAt === undefined ? now.getTime() : Date.parse(sheet.finishedAt);
  const items: Array<[MessageKey, string]> = [
    ['dashboard.fact.connection', connectionCell(words, sheet)],
    ['dashboard.fact.received', timeElement(words, sheet.startedAt)],
  ];
  if (sheet.finishedAt !== undefined) {
    items.push(['dashboard.fact.reported', timeElement(words, sheet.finishedAt)]);
  }
  items.push(['dashboard.fact.duration', duration(words, end - Date.parse(sheet.startedAt))]);
  const total = sheet.total === undefined ? '?' : count(words, sheet.total);
  const ended = say(words, 'dashboard.fact.rowsEnded', {
    ended: markup(count(words, sheet.final)),
    total: markup(total),
  });
  items.push(['dashboard.fact.rows', `${ended}${paceLine(words, view.pace)}`]);
  if (sheet.duplicateOf !== undefined) {
    items.push([
      'dashboard.fact.sameContent',
      duplicateNote(words, sheet.duplicateOf, view.earlierName),
    ]);
  }
  // Its files are on one data folder's disk: until it is reported, only that folder's workers
  // work it, and this is the folder it waits for.
  if (sheet.installation !== undefined && sheet.state !== 'done') {
    const installation = data(sheet.installation);
    const workers =
      sheet.dataDir === undefined
        ? say(words, 'dashboard.fact.workersOf', { installation })
        : say(words, 'dashboard.fact.workers', { folder: data(sheet.dataDir), installation });
    items.push(['dashboard.fact.workedBy', workers]);
  }
  if (sheet.reportDir !== undefined) {
    items.push(['dashboard.fact.report', reportLinks(words, sheet)]);
  }
  const orders = ordersSummary(words, view.orders?.seen);
  if (orders !== '') items.push(['dashboard.fact.orders', orders]);
  const rows = items.map(
    ([term, value]) => `<div><dt>${say(words, term)}</dt><dd>${value}</dd></div>`,
  );
  return `<dl class="facts">${rows.join('')}</dl>`;
}

/** Why the sheet could not be read, and what its import warned of. */
function problems(words: Words, sheet: SheetDetail): string {
  const parts: string[] = [];
  if (sheet.error !== undefined) {
    const said = say(words, 'dashboard.sheet.unreadable', { reason: data(sheet.error) });
    parts.push(`<p class="bad" id="sheet-error">${said}</p>`);
  }
  if (sheet.warnings.length > 0) {
    const items = sheet.warnings.map((w) => `<li>${shown(w)}</li>`).join('');
    parts.push(`<ul class="warnings">${items}</ul>`);
  }
  return parts.join('\n');
}

/** Links that show all rows or those of one status, with how many there are of each. */
function statusFilter(words: Words, sheet: SheetDetail, query: RowsQuery): string {
  const choices: Array<[RowStatus | undefined, number | undefined]> = [
    [undefined, sheet.total],
    ...ROW_STATUSES.map((s): [RowStatus, number] => [s, sheet.counts[s]]),
  ];
  const links = choices.map(([status, n]) => {
    const href = status === undefined ? '?' : `?status=${status}`;
    const current = status === query.status ? ' aria-current="page"' : '';
    const shownCount = n === undefined ? '' : ` <span class="n">${count(words, n)}</span>`;
    return `<a href="${escapeHtml(href)}"${current}>${statusWord(words, status)}${shownCount}</a>`;
  });
  return `<nav class="filter" aria-label="${say(words, 'dashboard.sheet.byStatus')}">${links.join('')}</nav>`;
}

/** A status as a `select` of the catalogue's messages chooses it. */
function chosen(status: RowStatus | undefined): string {
  return status === 'needs-review' ? 'needsReview' : (status ?? 'all');
}

function rowsPart(view: SheetView): string {
  const { rows, query, words } = view;
  if (rows instanceof Error) {
    return `<p class="bad">${say(words, 'dashboard.rows.unreadable', { reason: data(rows.message) })}</p>`;
  }
  if (rows === undefined) {
    const why =
      view.sheet.error === undefined ? 'dashboard.rows.notCounted' : 'dashboard.rows.noRows';
    return `<p class="sub">${say(words, why)}</p>`;
  }
  const pages = Math.max(1, Math.ceil(rows.matching / PAGE_SIZE));
  const from = (query.page - 1) * PAGE_SIZE + 1;
  const to = from + rows.rows.length - 1;
  const status = chosen(query.status);
  const said =
    rows.rows.length === 0
      ? say(words, 'dashboard.rows.none', { status })
      : say(words, 'dashboard.rows.range', {
          status,
          from: markup(count(words, from)),
          to: markup(count(words, to)),
          matching: markup(count(words, rows.matching)),
        });
  const note = rows.note === undefined ? '' : ` ${rowsNote(words, rows.note)}`;
  return [
    `<p class="sub" id="rows-said">${said}${note}</p>`,
    rows.rows.length === 0 ? '' : rowsTable(words, rows.rows, view.orders?.rows),
    pageLinks(words, query, pages),
  ].join('\n');
}

/** What the page of a running sheet could not show yet. */
function rowsNote(words: Words, note: RowsNote): string {
  const running = say(words, 'dashboard.rows.running');
  if (note.looked === undefined) return running;
  const partly = say(words, 'dashboard.rows.partly', {
    looked: markup(count(words, note.looked)),
    ended: markup(count(words, note.ended)),
  });
  return `${running} ${partly}`;
}

/**
 * The rows, and with a status.csv read, a last column of each row's order as it was checked;
 * when those cannot be read, the page says so above the rows.
 */
function rowsTable(
  words: Words,
  rows: readonly ShownRow[],
  orders: ReadonlyMap<number, OrderLine> | Error | undefined,
): string {
  const withOrders = orders !== undefined && !(orders instanceof Error);
  const head = `<thead><tr>${rowsHead(words)}<th>${say(words, 'dashboard.head.files')}</th>${withOrders ? `<th>${say(words, 'dashboard.head.orderStatus')}</th>` : ''}</tr></thead>`;
  const lines = rows.map((row) =>
    rowLine(words, row, withOrders ? orderCell(words, orders.get(row.row)) : ''),
  );
  const problem = orders instanceof Error ? `<p>${statusProblem(words, orders)}</p>\n` : '';
  return `${problem}<table class="rows" id="rows">${head}<tbody>\n${lines.join('\n')}\n</tbody></table>`;
}

/** The heads of a row's number and of rowCells' cells, as the sheet's page and the search show them. */
export function rowsHead(words: Words): string {
  const head = (key: MessageKey, cls = '') =>
    `<th${cls === '' ? '' : ` class="${cls}"`}>${say(words, key)}</th>`;
  return [
    head('dashboard.head.row', 'n'),
    head('dashboard.head.status'),
    head('dashboard.head.reference'),
    head('dashboard.head.address'),
    head('dashboard.head.contact'),
    head('dashboard.head.error', 'error'),
    head('dashboard.head.order'),
  ].join('');
}

function rowLine(words: Words, row: ShownRow, order: string): string {
  const first =
    row.sourceRow === ''
      ? ''
      : `<div class="note">${say(words, 'dashboard.rows.firstRow', { row: data(row.sourceRow) })}</div>`;
  const files = row.fileIds.split('|').filter(Boolean).join(' ');
  return [
    `<tr id="row-${row.row}" data-row="${row.row}" data-status="${escapeHtml(row.status)}">`,
    `<td class="n">${row.row}${first}</td>`,
    ...rowCells(words, row),
    `<td class="text">${shown(files)}</td>`,
    order,
    '</tr>',
  ].join('');
}

/** Previous and next, keeping the status looked at. */
function pageLinks(words: Words, query: RowsQuery, pages: number): string {
  if (pages <= 1) return '';
  const href = (page: number) =>
    escapeHtml(`?${query.status === undefined ? '' : `status=${query.status}&`}page=${page}`);
  const previous =
    query.page > 1
      ? `<a href="${href(query.page - 1)}" rel="prev">${say(words, 'dashboard.rows.previous')}</a>`
      : '';
  const next =
    query.page < pages
      ? `<a href="${href(query.page + 1)}" rel="next">${say(words, 'dashboard.rows.next')}</a>`
      : '';
  const where = say(words, 'dashboard.rows.page', {
    page: markup(count(words, query.page)),
    pages: markup(count(words, pages)),
  });
  return `<nav class="pages" aria-label="${say(words, 'dashboard.rows.pages')}">${previous}<span>${where}</span>${next}</nav>`;
}

/** A page that says what went wrong and where to go instead. */
export function errorPage(
  words: Words,
  heading: MessageKey,
  text: string,
  back: { href: string; key: MessageKey },
): { title: string; main: string } {
  return {
    title: titled(words, markup(say(words, heading))),
    main: `<h1>${say(words, heading)}</h1>\n<p class="sub">${text} <a href="${escapeHtml(back.href)}">${say(words, back.key)}</a></p>`,
  };
}

/** The page of a sheet this dashboard does not know. */
export function unknownSheetPage(words: Words, sheetId: string): { title: string; main: string } {
  return errorPage(
    words,
    'dashboard.unknownSheet.heading',
    say(words, 'dashboard.unknownSheet.text', { id: data(sheetId) }),
    { href: '/', key: 'dashboard.unknownSheet.back' },
  );
}

/** The page of a query this sheet's page does not take (a status not in the list, no page number). */
export function badQueryPage(words: Words, sheetId: string): { title: string; main: string } {
  // The statuses as the query writes them (`?status=needs-review`), not as the page says them.
  const statuses = markup(ROW_STATUSES.join(', '));
  return errorPage(
    words,
    'dashboard.badQuery.heading',
    say(words, 'dashboard.badQuery.text', { statuses }),
    { href: `/sheets/${encodeURIComponent(sheetId)}`, key: 'dashboard.badQuery.back' },
  );
}
