/**
 * The search's page (`/search?q=…`): the rows found in the latest reports, each with its sheet
 * linked, and how far the search got, so that "nothing found" never hides "not all searched".
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { PageAssets } from './assets.js';
import { count, escapeHtml, rowCells, sheetHref, shown } from './html.js';
import type { OverviewSources } from './overview.js';
import { type FramedPage, sendFramed } from './pages.js';
import { searchReports, type SearchResult } from './search.js';
import { PAGE_SIZE } from './sheet-rows.js';

const searchQuerySchema = z.object({ q: z.string().max(100).optional() });

/** Searches run at once by one dashboard. */
export const MAX_SEARCHES = 2;

export function searchRoutes(
  app: FastifyInstance,
  sources: OverviewSources,
  assets: PageAssets,
): void {
  // Each search is bounded (SEARCH_LIMITS), not their number: a few at once, and the rest are
  // asked to come back, so that the overview and /healthz still answer while people search.
  let searching = 0;
  app.get<{ Querystring: unknown }>('/search', async (request, reply) => {
    const parsed = searchQuerySchema.safeParse(request.query);
    if (!parsed.success) {
      const refused = new Error('a search is one text of at most 100 characters.');
      return sendFramed(reply, assets, 400, searchPage('', refused));
    }
    // Controls cannot be typed into the box, and would find nothing in a report.
    // eslint-disable-next-line no-control-regex -- dropping controls is the point
    const q = (parsed.data.q ?? '').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
    if (q === '') return sendFramed(reply, assets, 200, searchPage('', undefined));
    if (searching >= MAX_SEARCHES) {
      const busy = new Error(
        `${MAX_SEARCHES} searches are running already; try again in a few seconds.`,
      );
      void reply.header('retry-after', '3');
      return sendFramed(reply, assets, 503, searchPage(q, busy));
    }
    searching += 1;
    let result: SearchResult | Error;
    try {
      result = await searchReports(await sources.overview(), q);
    } catch (error) {
      sources.logger.warn({ err: error }, 'the reports cannot be searched');
      result = error instanceof Error ? error : new Error(String(error));
    } finally {
      searching -= 1;
    }
    return sendFramed(reply, assets, 200, searchPage(q, result));
  });
}

export function searchPage(query: string, result: SearchResult | Error | undefined): FramedPage {
  const form = `<form class="search" action="/search" method="get" role="search"><input type="search" name="q" maxlength="100" required aria-label="Reference, address or contact" value="${escapeHtml(query)}" /><button type="submit">Search</button></form>`;
  const head = `<header class="title"><h1>Search</h1>${form}</header>`;
  let body: string;
  if (result === undefined) {
    body =
      '<p class="sub">Look for a reference, an address or a contact in the latest reports.</p>';
  } else if (result instanceof Error) {
    body = `<p class="bad">The reports cannot be searched now: ${shown(result.message)}</p>`;
  } else {
    body = `${searched(query, result)}\n${hitsTable(result)}`;
  }
  return { title: `Search · order-importer`, main: `${head}\n${body}` };
}

/** What was searched, and why not more. */
function searched(query: string, result: SearchResult): string {
  const found = result.hits.length === 0 ? 'Nothing found' : `${count(result.hits.length)} found`;
  const stopped = result.stopped === undefined ? '' : `; ${shown(result.stopped)}`;
  const running =
    result.running === 0
      ? ''
      : ` Sheets still being imported (${count(result.running)}) are searched once reported.`;
  const unreadable =
    result.unreadable.length === 0
      ? ''
      : ` The report of ${result.unreadable.map((name) => `“${shown(name)}”`).join(', ')} could not be read to its end (changed on disk since it was written?).`;
  return `<p class="sub" id="searched">${found} for “${shown(query)}” in ${count(result.sheets)} reported sheet(s), ${count(result.rows)} rows${stopped}.${running}${unreadable}</p>`;
}

/** Where a row is on its sheet's page: the page that holds it, scrolled to it. */
function rowHref(sheetId: string, row: number): string {
  return `${sheetHref(sheetId)}?page=${Math.ceil(row / PAGE_SIZE)}#row-${row}`;
}

function hitsTable(result: SearchResult): string {
  if (result.hits.length === 0) return '';
  const lines = result.hits.map(({ sheetId, sheetName, row }) =>
    [
      `<tr data-sheet-id="${escapeHtml(sheetId)}" data-row="${row.row}">`,
      `<td class="text"><a href="${escapeHtml(rowHref(sheetId, row.row))}">${shown(sheetName)}</a></td>`,
      `<td class="n">${row.row}</td>`,
      ...rowCells(row),
      '</tr>',
    ].join(''),
  );
  const head =
    '<thead><tr><th>Sheet</th><th class="n">Row</th><th>Status</th><th>Reference</th><th>Address</th><th>Contact</th><th class="error">Error</th><th>Order</th></tr></thead>';
  return `<table class="rows" id="hits">${head}<tbody>\n${lines.join('\n')}\n</tbody></table>`;
}
