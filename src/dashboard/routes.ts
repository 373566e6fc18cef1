/** The dashboard's pages: the overview, each sheet's page and the search, sharing one pace meter. */
import type { FastifyInstance } from 'fastify';

import type { PageAssets } from './assets.js';
import { type OverviewSources, overviewRoutes } from './overview.js';
import { PaceMeter } from './rate.js';
import { searchRoutes } from './search-page.js';
import { sheetRoutes } from './sheet-routes.js';

export function pageRoutes(
  app: FastifyInstance,
  sources: OverviewSources,
  assets: PageAssets,
): void {
  const meter = new PaceMeter();
  overviewRoutes(app, sources, assets, meter);
  sheetRoutes(app, sources, assets, meter);
  searchRoutes(app, sources, assets);
}
