/**
 * The dashboard's pages: the overview, each sheet's page and the search, sharing one pace meter,
 * one cache of the sheets' status.csv summaries and the words of each language; each report's
 * files; and the page of a path it does not know.
 */
import type { FastifyInstance } from 'fastify';

import type { PageAssets } from './assets.js';
import { notFoundRoute } from './error-pages.js';
import type { DashboardLanguages } from './language.js';
import { type OverviewSources, overviewRoutes } from './overview.js';
import { PaceMeter } from './rate.js';
import { reportRoutes } from './reports.js';
import { searchRoutes } from './search-page.js';
import { sheetRoutes } from './sheet-routes.js';
import { seenSources } from './seen.js';
import { StatusCache } from './status-cache.js';

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
  reportRoutes(
    app,
    async (sheetId, viewer) => {
      const seen = seenSources(sources, viewer);
      const sheet =
        seen.sheet === undefined
          ? (await seen.overview()).find((s) => s.sheetId === sheetId)
          : await seen.sheet(sheetId);
      return sheet?.reportDir;
    },
    { assets, languages },
  );
  notFoundRoute(app, assets, languages);
}
