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
  pageHelpers,
} from './overview.js';
import { reportRoutes } from './reports.js';
import { searchRoutes } from './search-page.js';
import { pageSources } from './page-sources.js';
import { sheetRoutes } from './sheet-routes.js';

/** Where the pages' sheets and the agenda's inspections come from. */
export type PageSources = OverviewSources & { agenda?: AgendaSource };

/**
 * `offices`: the configuration's, whose sheets alone the pages show (none: every sheet given);
 * of those, every page shows what its request's viewer sees, and no more (seen.ts, viewer.ts).
 */
export function pageRoutes(
  app: FastifyInstance,
  given: PageSources,
  assets: PageAssets,
  languages: DashboardLanguages,
  offices?: readonly DashboardOffice[],
): void {
  const { sources, sourcesOf } = pageSources(app, given, languages, offices);
  const helpers = pageHelpers(languages);
  overviewRoutes(app, sourcesOf, assets, helpers);
  sheetRoutes(app, sourcesOf, assets, helpers);
  searchRoutes(app, sourcesOf, assets, helpers);
  agendaRoutes(app, sources, assets, languages);
  reportRoutes(
    app,
    async (sheetId, request) => {
      const seen = sourcesOf(request);
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
