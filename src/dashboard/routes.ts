/**
 * The dashboard's pages: the overview, each sheet's page and the search, sharing one pace meter
 * and one cache of the sheets' status.csv summaries.
 */
import type { FastifyInstance } from 'fastify';

import type { PageAssets } from './assets.js';
import { type OverviewSources, overviewRoutes } from './overview.js';
import { PaceMeter } from './rate.js';
import { searchRoutes } from './search-page.js';
import { sheetRoutes } from './sheet-routes.js';
import { StatusCache } from './status-cache.js';

export function pageRoutes(
  app: FastifyInstance,
  sources: OverviewSources,
  assets: PageAssets,
): void {
  const helpers = { meter: new PaceMeter(), statuses: new StatusCache() };
  overviewRoutes(app, sources, assets, helpers);
  sheetRoutes(app, sources, assets, helpers);
  searchRoutes(app, sources, assets);
}
