/**
 * The dashboard's pages: the overview, each sheet's page and the search, sharing one pace meter,
 * one cache of the sheets' status.csv summaries and the words of each language; and the page of
 * a path it does not know.
 */
import type { FastifyInstance } from 'fastify';

import type { PageAssets } from './assets.js';
import type { DashboardLanguages } from './language.js';
import { type OverviewSources, overviewRoutes } from './overview.js';
import { sendFramed } from './pages.js';
import { PaceMeter } from './rate.js';
import { searchRoutes } from './search-page.js';
import { errorPage } from './sheet-page.js';
import { sheetRoutes } from './sheet-routes.js';
import { StatusCache } from './status-cache.js';
import { say } from './html.js';

export function pageRoutes(
  app: FastifyInstance,
  sources: OverviewSources,
  assets: PageAssets,
  languages: DashboardLanguages,
): void {
  const helpers = { meter: new PaceMeter(), statuses: new StatusCache(), languages };
  overviewRoutes(app, sources, assets, helpers);
  sheetRoutes(app, sources, assets, helpers);
  searchRoutes(app, sources, assets, languages);
  app.setNotFoundHandler(async (request, reply) => {
    const words = languages.of(request);
    const page = errorPage(
      words,
      'dashboard.notFound.heading',
      say(words, 'dashboard.notFound.text'),
      {
        href: '/',
        key: 'dashboard.unknownSheet.back',
      },
    );
    return sendFramed(reply, assets, { words, url: request.url }, 404, page);
  });
}
