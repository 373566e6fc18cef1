/**
 * The dashboard's pages: the overview, each sheet's page and the search, sharing one pace meter,
 * one cache of the sheets' status.csv summaries and the words of each language; each report's
 * files; and the page of a path it does not know.
 */
import type { FastifyInstance } from 'fastify';

import { type AgendaSource, agendaRoutes } from './agenda-routes.js';
import type { PageAssets } from './assets.js';
import { notFoundRoute } from './error-pages.js';
import type { DashboardLanguages } from './language.js';
import {
  type DashboardOffice,
  type OverviewSources,
  overviewRoutes,
  ownSources,
  pageHelpers,
} from './overview.js';
import { reportRoutes } from './reports.js';
import { searchRoutes } from './search-page.js';
import { sheetRoutes } from './sheet-routes.js';

/** Where the pages' sheets and the agenda's inspections come from. */
export type PageSources = OverviewSources & { agenda?: AgendaSource };

/** `offices`: the configuration's, whose sheets alone the pages show (none: every sheet given). */
export function pageRoutes(
  app: FastifyInstance,
  given: PageSources,
  assets: PageAssets,
  languages: DashboardLanguages,
  offices?: readonly DashboardOffice[],
): void {
  const sources = ownSources(given, offices);
  const helpers = pageHelpers(languages);
  overviewRoutes(app, sources, assets, helpers);
  sheetRoutes(app, sources, assets, helpers);
  searchRoutes(app, sources, assets, helpers);
  agendaRoutes(app, sources, assets, languages);
  reportRoutes(
    app,
    async (sheetId) => {
      const sheet =
        sources.sheet === undefined
          ? (await sources.overview()).find((s) => s.sheetId === sheetId)
          : await sources.sheet(sheetId);
      return sheet?.reportDir;
    },
    { assets, languages },
  );
  notFoundRoute(app, assets, languages);
}
