/**
 * A sheet's rows on its page: the links that filter them by status, the rows of the page asked
 * for (each with its order once status.csv tells it), and the links to the other pages.
 */
import { ROW_STATUSES, type RowStatus } from '../glossary.js';
import type { Words } from '../language/words.js';
import type { SheetDetail } from '../store/progress.js';
import {
  cellLabel,
  count,
  data,
  escapeHtml,
  markup,
  rowCells,
  type RowColumns,
  rowsHead,
  say,
  shown,
  statusWord,
} from './html.js';
import { fixedRowMark } from './fix-html.js';
import type { OrderLine } from './order-status.js';
import type { ShownRow } from './report-csv.js';
import { PAGE_SIZE, type RowsNote, type RowsPage, type RowsQuery } from './sheet-rows.js';
import type { PageOrders } from './status-cache.js';
import { orderCell, statusProblem } from './status-html.js';

/** Links that show all rows or those of one status, with how many there are of each. */
export function statusFilter(words: Words, sheet: SheetDetail, query: RowsQuery): string {
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

/** The rows of the page, and what is said of them: how many, what is not shown yet. */
export function rowsPart(
  words: Words,
  view: {
    sheet: Pick<SheetDetail, 'error' | 'fixedRows' | 'fixedLater'>;
    query: RowsQuery;
    rows: RowsPage | Error | undefined;
    orders?: PageOrders;
  },
): string {
  const { rows, query } = view;
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
    rows.rows.length === 0 ? '' : rowsTable(words, rows.rows, view.orders?.rows, view.sheet),
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
  sheet: Pick<SheetDetail, 'fixedRows' | 'fixedLater'> = {},
): string {
  const withOrders = orders !== undefined && !(orders instanceof Error);
  const columns = { error: rows.some((row) => row.error !== '') };
  const head = `<thead><tr>${rowsHead(words, columns)}<th>${say(words, 'dashboard.head.files')}</th>${withOrders ? `<th>${say(words, 'dashboard.head.orderStatus')}</th>` : ''}</tr></thead>`;
  const lines = rows.map((row) =>
    rowLine(words, row, columns, withOrders ? orderCell(words, orders.get(row.row)) : '', sheet),
  );
  const problem = orders instanceof Error ? `<p>${statusProblem(words, orders)}</p>\n` : '';
  return `${problem}<table class="rows" id="rows">${head}<tbody>\n${lines.join('\n')}\n</tbody></table>`;
}

function rowLine(
  words: Words,
  row: ShownRow,
  columns: RowColumns,
  order: string,
  sheet: Pick<SheetDetail, 'fixedRows' | 'fixedLater'>,
): string {
  const first =
    row.sourceRow === ''
      ? ''
      : `<div class="note">${say(words, 'dashboard.rows.firstRow', { row: data(row.sourceRow) })}</div>`;
  // Fixed by a later sheet: no longer an open problem, and where it was fixed.
  const fixed = fixedRowMark(words, sheet, row.row);
  return [
    `<tr id="row-${row.row}" data-row="${row.row}" data-status="${escapeHtml(row.status)}"${fixed.attribute}>`,
    `<td class="n"${cellLabel(words, 'dashboard.head.row')}>${row.row}${first}${fixed.note}</td>`,
    ...rowCells(words, row, columns),
    `<td class="text files"${cellLabel(words, 'dashboard.head.files')}>${filesList(words, row)}</td>`,
    order,
    '</tr>',
  ].join('');
}

/**
 * A row's attachments by their names (the sheet's files cell, as report.csv echoes it), each
 * with its id in the API as its tooltip; by their ids where the names are not known (a running
 * sheet, a report written before its files were echoed).
 */
function filesList(words: Words, row: ShownRow): string {
  const ids = row.fileIds.split('|');
  const names = row.files.split('|').filter(Boolean);
  const shownFiles =
    names.length === 0
      ? ids.filter(Boolean).map((id) => `<span class="file id">${shown(id)}</span>`)
      : names.map((path, i) => {
          const id = ids[i] ?? '';
          const title =
            id === '' ? '' : ` title="${escapeHtml(words.t('dashboard.file.idTitle', { id }))}"`;
          return `<span class="file"${title}>${shown(baseName(path))}</span>`;
        });
  return shownFiles.join(' ');
}

/** A file's name without the folders the sheet gives it in (`plans/kelder.pdf`: `kelder.pdf`). */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) || path;
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
