/**
 * The imports overview: `/` rendered on the server (page.ts into assets/page.html), its style and
 * script under `/assets/`, and the same sheets as JSON at `/api/imports`.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

import type { SheetProgress } from '../store/progress.js';
import type { PageAssets } from './assets.js';
import { type NotTakenSheet, overviewPage } from './page.js';

/** Where the overview's sheets come from. */
export interface OverviewSources {
  /** The sheets, newest first. */
  overview(): Promise<SheetProgress[]>;
  /** Sheets the hot folder left where they were, and why; shown on `/` when there are any. */
  notTaken?: () => Promise<NotTakenSheet[]>;
  logger: Logger;
}

/**
 * The page's only sources are the dashboard itself, and it runs no inline script or style: a
 * sheet name that slipped past escaping still could not run.
 */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function overviewRoutes(
  app: FastifyInstance,
  sources: OverviewSources,
  assets: PageAssets,
): void {
  app.get('/', async (_request, reply) => {
    const [sheets, notTaken] = await Promise.all([sheetsNow(sources), notTakenNow(sources)]);
    const page = overviewPage(assets.template, { sheets, notTaken, now: new Date() });
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_POLICY)
      .header('cache-control', 'no-store')
      .send(page);
  });
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets.files.get(request.params.name);
    if (asset === undefined) return reply.code(404).send({ message: 'No such file.' });
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  });
  app.get('/api/imports', async () => ({ imports: await sources.overview() }));
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
