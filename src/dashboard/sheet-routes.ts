/**
 * `/sheets/<sheetId>`: a sheet's page, its rows by status, a page at a time. The query is checked
 * before it is used: an unknown sheet is a 404 page, a status not in the list or a page number out
 * of bounds a 400 page; and no part of a request ever names a file: a sheet's report folder comes
 * from its record alone.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import { ROW_STATUSES, type RowStatus } from '../glossary.js';
import type { SheetDetail } from '../store/progress.js';
import type { PageAssets } from './assets.js';
import { nowOf, type OverviewSources, type PageHelpers, type SourcesOf } from './overview.js';
import { badQueryPage, unknownSheetPage } from './error-pages.js';
import { type FramedPage, type Reader, sendFramed } from './pages.js';
import { sheetPage } from './sheet-page.js';
import {
  PAGE_SIZE,
  type RowsPage,
  type RowsQuery,
  reportedRows,
  runningRows,
} from './sheet-rows.js';

/** Sheet ids as the importer makes them (`20261126-101502-3fa9c1`), with room to spare. */
const SHEET_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const rowsQuerySchema = z.object({
  status: z.union([z.enum(ROW_STATUSES), z.literal('')]).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

export function sheetRoutes(
  app: FastifyInstance,
  sourcesOf: SourcesOf,
  assets: PageAssets,
  helpers: PageHelpers,
): void {
  app.get<{ Params: { sheetId: string }; Querystring: unknown }>(
    '/sheets/:sheetId',
    async (request, reply) => {
      const { sheetId } = request.params;
      const sources = sourcesOf(request);
      const reader = { words: helpers.languages.of(request), url: request.url };
      const { words } = reader;
      const sheet = SHEET_ID.test(sheetId) ? await sheetOf(sources, sheetId) : undefined;
      if (sheet === undefined) {
        return sendFramed(reply, assets, reader, 404, unknownSheetPage(words, sheetId));
      }
      const parsed = rowsQuerySchema.safeParse(request.query);
      if (!parsed.success) {
        return sendFramed(reply, assets, reader, 400, badQueryPage(words, sheetId));
      }
      const status = parsed.data.status === '' ? undefined : parsed.data.status;
      const query: RowsQuery = { status, page: parsed.data.page ?? 1 };
      // A page past the last (a link kept from before) shows the last instead, read only once.
      const known = knownPages(sheet, status);
      if (known !== undefined && query.page > known) {
        return reply.redirect(pageHref(sheetId, status, known), 303);
      }
      const rows = await rowsOf(words, sheet, sources, query);
      const page = await pageOf(words, sheet, sources, helpers, { query, rows });
      return sendFramed(reply, assets, reader, 200, page);
    },
  );
}

async function pageOf(
  words: Reader['words'],
  sheet: SheetDetail,
  sources: OverviewSources,
  helpers: PageHelpers,
  { query, rows }: { query: RowsQuery; rows: RowsPage | Error | undefined },
): Promise<FramedPage> {
  const earlier =
    sheet.duplicateOf === undefined ? undefined : await sheetOf(sources, sheet.duplicateOf);
  const pace = helpers.meter.observe([sheet]).get(sheet.sheetId);
  const now = nowOf(sources);
  // A reported sheet's orders, from the status.csv beside its report, once there is one.
  const orders =
    sheet.reportDir === undefined
      ? undefined
      : await helpers.statuses.page(
          sheet.reportDir,
          rows === undefined || rows instanceof Error ? [] : rows.rows.map((r) => r.row),
          now,
        );
  return sheetPage({
    words,
    sheet,
    ...(earlier !== undefined && { earlierName: earlier.name }),
    ...(pace !== undefined && { pace }),
    ...(orders !== undefined && { orders }),
    query,
    rows,
    now,
  });
}

/** How many pages a reported sheet has for this status (its counts are final). */
function knownPages(sheet: SheetDetail, status: RowStatus | undefined): number | undefined {
  if (sheet.state !== 'done') return undefined;
  const matching = status === undefined ? (sheet.total ?? 0) : sheet.counts[status];
  return Math.max(1, Math.ceil(matching / PAGE_SIZE));
}

/** A sheet by its id: from its record when the dashboard can read records, else the overview. */
async function sheetOf(
  sources: OverviewSources,
  sheetId: string,
): Promise<SheetDetail | undefined> {
  if (sources.sheet !== undefined) return sources.sheet(sheetId);
  const found = (await sources.overview()).find((s) => s.sheetId === sheetId);
  return found === undefined ? undefined : { ...found, warnings: [] };
}

/** The page's rows: the report's once written, Redis's while the sheet runs. */
async function rowsOf(
  words: Reader['words'],
  sheet: SheetDetail,
  sources: OverviewSources,
  query: RowsQuery,
): Promise<RowsPage | Error | undefined> {
  try {
    if (sheet.state === 'done') {
      const rows = await reportedRows(sheet, query);
      return rows ?? new Error(words.t('dashboard.rows.noReport'));
    }
    return sources.results === undefined
      ? undefined
      : await runningRows(sheet, sources.results, query, words);
  } catch (error) {
    sources.logger.warn({ err: error, sheetId: sheet.sheetId }, 'the rows cannot be read');
    return error instanceof Error ? error : new Error(String(error));
  }
}

function pageHref(sheetId: string, status: string | undefined, page: number): string {
  const query = new URLSearchParams({
    ...(status !== undefined && { status }),
    page: String(page),
  });
  return `/sheets/${encodeURIComponent(sheetId)}?${query.toString()}`;
}
