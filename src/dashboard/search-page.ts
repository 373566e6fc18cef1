/**
 * The search's page (`/search?q=…`): the rows found in the latest reports, each with its sheet
 * linked, and how far the search got, so that "nothing found" never hides "not all searched".
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { MessageKey, Words } from '../language/words.js';
import type { PageAssets } from './assets.js';
import {
  count,
  data,
  escapeHtml,
  markup,
  rowCells,
  rowsHead,
  say,
  sheetHref,
  shown,
  titled,
} from './html.js';
import { nowOf, type PageHelpers, type SourcesOf } from './overview.js';
import { type FramedPage, sendFramed } from './pages.js';
import { searchReports, type SearchResult, type SearchStop } from './search.js';
import { hitOrderCells, type HitOrders, ordersOfHits } from './search-orders.js';
import { PAGE_SIZE } from './sheet-rows.js';

const searchQuerySchema = z.object({ q: z.string().max(100).optional() });

/** Searches run at once by one dashboard. */
export const MAX_SEARCHES = 2;

/** Why a search was not run: too long a text, or too many searches at once. */
type NotRun = { refused: 'tooLong' } | { refused: 'busy'; running: number };

export function searchRoutes(
  app: FastifyInstance,
  sourcesOf: SourcesOf,
  assets: PageAssets,
  helpers: PageHelpers,
): void {
  const { languages } = helpers;
  // Each search is bounded (SEARCH_LIMITS), not their number: a few at once, and the rest are
  // asked to come back, so that the overview and /healthz still answer while people search.
  let searching = 0;
  app.get<{ Querystring: unknown }>('/search', async (request, reply) => {
    const reader = { words: languages.of(request), url: request.url };
    const { words } = reader;
    const parsed = searchQuerySchema.safeParse(request.query);
    if (!parsed.success) {
      return sendFramed(reply, assets, reader, 400, searchPage(words, '', { refused: 'tooLong' }));
    }
    // Controls cannot be typed into the box, and would find nothing in a report.
    // eslint-disable-next-line no-control-regex -- dropping controls is the point
    const q = (parsed.data.q ?? '').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
    if (q === '') return sendFramed(reply, assets, reader, 200, searchPage(words, '', undefined));
    if (searching >= MAX_SEARCHES) {
      void reply.header('retry-after', '3');
      const busy: NotRun = { refused: 'busy', running: MAX_SEARCHES };
      return sendFramed(reply, assets, reader, 503, searchPage(words, q, busy));
    }
    searching += 1;
    const sources = sourcesOf(request);
    let result: SearchResult | Error;
    try {
      result = await searchReports(await sources.overview(), q);
    } catch (error) {
      sources.logger.warn({ err: error }, 'the reports cannot be searched');
      result = error instanceof Error ? error : new Error(String(error));
    } finally {
      searching -= 1;
    }
    // Each hit's order, from its sheet's status.csv (a file that cannot be read is said in place).
    const now = nowOf(sources);
    const orders =
      result instanceof Error ? undefined : await ordersOfHits(result.hits, helpers.statuses, now);
    const page = searchPage(words, q, result, orders && { orders, now });
    return sendFramed(reply, assets, reader, 200, page);
  });
}

export function searchPage(
  words: Words,
  query: string,
  result: SearchResult | Error | NotRun | undefined,
  orders?: { orders: HitOrders; now: Date },
): FramedPage {
  const box = say(words, 'dashboard.search.box');
  const form = `<form class="search" action="/search" method="get" role="search"><input type="search" name="q" maxlength="100" required aria-label="${box}" value="${escapeHtml(query)}" /><button type="submit">${say(words, 'dashboard.search.button')}</button></form>`;
  const heading = say(words, 'dashboard.search.heading');
  const head = `<header class="title"><h1>${heading}</h1>${form}</header>`;
  let body: string;
  if (result === undefined) {
    body = `<p class="sub">${say(words, 'dashboard.search.intro')}</p>`;
  } else if (result instanceof Error || 'refused' in result) {
    body = `<p class="bad">${say(words, 'dashboard.search.unreadable', { reason: markup(whyNot(words, result)) })}</p>`;
  } else {
    body = `${searched(words, query, result)}\n${hitsTable(words, result, orders)}`;
  }
  return { title: titled(words, markup(heading)), main: `${head}\n${body}` };
}

function whyNot(words: Words, result: Error | NotRun): string {
  if (result instanceof Error) return shown(result.message);
  if (result.refused === 'tooLong') return say(words, 'dashboard.search.tooLong');
  return say(words, 'dashboard.search.busy', { count: result.running });
}

const STOPPED: Record<SearchStop['why'], MessageKey> = {
  sheets: 'dashboard.search.stoppedSheets',
  hits: 'dashboard.search.stoppedHits',
  rows: 'dashboard.search.stoppedRows',
  time: 'dashboard.search.stoppedTime',
};

/** What was searched, and why not more. */
function searched(words: Words, query: string, result: SearchResult): string {
  const { stopped } = result;
  const why =
    stopped === undefined
      ? ''
      : say(words, STOPPED[stopped.why], {
          count: markup(count(words, stopped.limit)),
          seconds: markup(count(words, stopped.limit)),
        });
  const said = say(words, 'dashboard.search.searched', {
    found: result.hits.length,
    query: data(query),
    sheets: result.sheets,
    rows: result.rows,
    stopped: stopped === undefined ? 'no' : 'yes',
    why: markup(why),
  });
  const running =
    result.running === 0
      ? ''
      : ` ${say(words, 'dashboard.search.running', { count: markup(count(words, result.running)) })}`;
  const names = words.list(result.unreadable.map((name) => `“${name}”`));
  const unreadable =
    result.unreadable.length === 0
      ? ''
      : ` ${say(words, 'dashboard.search.unreadableReports', { names: data(names) })}`;
  return `<p class="sub" id="searched">${said}${running}${unreadable}</p>`;
}

/** Where a row is on its sheet's page: the page that holds it, scrolled to it. */
function rowHref(sheetId: string, row: number): string {
  return `${sheetHref(sheetId)}?page=${Math.ceil(row / PAGE_SIZE)}#row-${row}`;
}

function hitsTable(
  words: Words,
  result: SearchResult,
  orders: { orders: HitOrders; now: Date } | undefined,
): string {
  if (result.hits.length === 0) return '';
  const lines = result.hits.map((hit) =>
    [
      `<tr data-sheet-id="${escapeHtml(hit.sheetId)}" data-row="${hit.row.row}">`,
      `<td class="text"><a href="${escapeHtml(rowHref(hit.sheetId, hit.row.row))}">${shown(hit.sheetName)}</a></td>`,
      `<td class="n">${hit.row.row}</td>`,
      ...rowCells(words, hit.row),
      orders === undefined ? '' : hitOrderCells(words, orders.orders, hit, orders.now),
      '</tr>',
    ].join(''),
  );
  // Each row's order as its sheet's status.csv says it: which of several hits is current.
  const orderHeads =
    orders === undefined
      ? ''
      : `<th>${say(words, 'dashboard.head.orderStatus')}</th><th>${say(words, 'dashboard.search.next')}</th>`;
  const head = `<thead><tr><th>${say(words, 'dashboard.head.sheet')}</th>${rowsHead(words)}${orderHeads}</tr></thead>`;
  return `<table class="rows" id="hits">${head}<tbody>\n${lines.join('\n')}\n</tbody></table>`;
}
