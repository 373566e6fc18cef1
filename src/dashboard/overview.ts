/**
 * The imports overview: `/` rendered on the server (page.ts into assets/page.html), the pages'
 * style and script under `/assets/`, and the same sheets as JSON at `/api/imports`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import type { SheetDetail, SheetProgress } from '../store/progress.js';
import type { PageAssets } from './assets.js';
import type { DashboardLanguages } from './language.js';
import { type NotTakenSheet, overviewPage } from './page.js';
import { sendHtml } from './pages.js';
import { PaceMeter } from './rate.js';
import type { RecordedResults } from './sheet-rows.js';
import { type OrdersSeen, StatusCache } from './status-cache.js';

/** One office of the dashboard's configuration: its connection's id (a hash) and name (`gent`). */
export interface DashboardOffice {
  id: string;
  name: string;
}

/** Where the dashboard's sheets come from. */
export interface OverviewSources {
  /** The sheets, newest first. */
  overview(): Promise<SheetProgress[]>;
  /** Sheets the hot folder left where they were, and why; shown on `/` when there are any. */
  notTaken?: () => Promise<NotTakenSheet[]>;
  /** One sheet by its id, with its warnings; without it, a sheet is found among the overview's. */
  sheet?: (sheetId: string) => Promise<SheetDetail | undefined>;
  /** The results of the rows of sheets not reported yet; without it, their rows are not shown. */
  results?: RecordedResults;
  /** The time now; the machine's clock without it. */
  clock?: () => Date;
  /** Redis not answering the last read (kept-sources.ts); undefined: it answered. */
  away?: () => { since: Date; asOf: Date | undefined } | undefined;
  logger: Logger;
}

/**
 * The sources limited to the offices' own sheets and sheets not taken (docs/design.md "One
 * installation, one namespace"): a sheet of another installation sharing the Redis is one the
 * dashboard does not know. None given: the sources as they are.
 */
export function ownSources<T extends OverviewSources>(
  sources: T,
  offices: readonly DashboardOffice[] | undefined,
): T {
  if (offices === undefined) return sources;
  const ids = new Set(offices.map((office) => office.id));
  const own = (connectionId: string | undefined) =>
    connectionId !== undefined && ids.has(connectionId);
  const { sheet, notTaken } = sources;
  return {
    ...sources,
    overview: async () => (await sources.overview()).filter((s) => own(s.connectionId)),
    ...(sheet !== undefined && {
      sheet: async (sheetId: string) => {
        const found = await sheet(sheetId);
        return found !== undefined && own(found.connectionId) ? found : undefined;
      },
    }),
    ...(notTaken !== undefined && {
      notTaken: async () => (await notTaken()).filter((entry) => own(entry.connectionId)),
    }),
  };
}

/**
 * The sources as a request's viewer sees them (seen.ts): every route asks for its request's,
 * so that no sheet of an office the viewer does not see is shown, counted or handed out.
 */
export type SourcesOf = (request: FastifyRequest) => OverviewSources;

/** What the dashboard's pages share while it runs. */
export interface PageHelpers {
  meter: PaceMeter;
  statuses: StatusCache;
  /** The words of each language, and which a request is answered in. */
  languages: DashboardLanguages;
}

/** The helpers of a dashboard that starts: nothing measured or read yet. */
export function pageHelpers(languages: DashboardLanguages): PageHelpers {
  return { meter: new PaceMeter(), statuses: new StatusCache(), languages };
}

/** The time now, as the sources say it. */
export function nowOf(sources: Pick<OverviewSources, 'clock'>): Date {
  return sources.clock === undefined ? new Date() : sources.clock();
}

export function overviewRoutes(
  app: FastifyInstance,
  sourcesOf: SourcesOf,
  assets: PageAssets,
  helpers: PageHelpers,
): void {
  app.get('/', async (request, reply) => {
    const sources = sourcesOf(request);
    const words = helpers.languages.of(request);
    const [sheets, notTaken] = await Promise.all([sheetsNow(sources), notTakenNow(sources)]);
    const now = nowOf(sources);
    const paces = sheets instanceof Error ? undefined : helpers.meter.observe(sheets);
    const orders = sheets instanceof Error ? undefined : await ordersOf(sheets, helpers, now);
    const template = assets.spoken.get(words.language)?.template ?? assets.template;
    const page = overviewPage(template, {
      words,
      sheets,
      notTaken,
      now,
      ...(paces !== undefined && { paces }),
      ...(orders !== undefined && { orders }),
    });
    return sendHtml(reply, { words, url: request.url }, 200, page);
  });
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets.files.get(request.params.name);
    // The page of any path the dashboard has none for, in the reader's language.
    if (asset === undefined) {
      reply.callNotFound();
      return reply;
    }
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  });
  app.get('/api/imports', async (request) => {
    const sources = sourcesOf(request);
    const imports = await sources.overview();
    // While Redis is away: the imports last read, and as of when.
    const away = sources.away?.();
    return away === undefined
      ? { imports }
      : { imports, redis: 'away', asOf: away.asOf?.toISOString() ?? null };
  });
}

/** The sheets, or why they cannot be shown: the page is shown either way. */
async function sheetsNow(sources: OverviewSources): Promise<SheetProgress[] | Error> {
  try {
    return await sources.overview();
  } catch (error) {
    sources.logger.warn({ err: error }, 'the imports cannot be read');
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * What each reported sheet's status.csv says, by sheetId; one after the other, since each is read
 * again only once it changed (status-cache.ts).
 */
async function ordersOf(
  sheets: readonly SheetProgress[],
  helpers: PageHelpers,
  now: Date,
): Promise<Map<string, OrdersSeen>> {
  const orders = new Map<string, OrdersSeen>();
  for (const sheet of sheets) {
    if (sheet.reportDir === undefined) continue;
    orders.set(sheet.sheetId, await helpers.statuses.seen(sheet.reportDir, now));
  }
  return orders;
}

/** The sheets not taken, or why they cannot be shown: the page is shown either way. */
async function notTakenNow(sources: OverviewSources): Promise<NotTakenSheet[] | Error | undefined> {
  if (sources.notTaken === undefined) return undefined;
  try {
    return await sources.notTaken();
  } catch (error) {
    sources.logger.warn({ err: error }, 'the sheets not taken cannot be read');
    return error instanceof Error ? error : new Error(String(error));
  }
}
