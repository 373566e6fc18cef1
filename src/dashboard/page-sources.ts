/**
 * The sources the dashboard's pages read: its offices' own (overview.ts), as each request's viewer
 * sees them (seen.ts), every read bounded while Redis is away (kept-sources.ts); and the line every
 * HTML page then shows: that Redis does not answer, and as of when what the page shows was read.
 */
import type { FastifyInstance } from 'fastify';

import { escapeHtml } from './html.js';
import { DASHBOARD_REDIS_WAIT_MS } from '../policy.js';
import { type KeptSources, keptSources } from './kept-sources.js';
import type { DashboardLanguages } from './language.js';
import {
  type DashboardOffice,
  type OverviewSources,
  ownSources,
  type SourcesOf,
} from './overview.js';
import { seenBy } from './seen.js';

/**
 * The offices' own sources (all given, without `offices`) and each request's share of them; while
 * Redis is away, every page answers at once from what was last read, and says so.
 */
export function pageSources<T extends OverviewSources>(
  app: FastifyInstance,
  given: T,
  languages: DashboardLanguages,
  offices: readonly DashboardOffice[] | undefined,
): { sources: T; sourcesOf: SourcesOf } {
  const kept = keptSources(given, DASHBOARD_REDIS_WAIT_MS);
  sayWhenAway(app, kept, languages);
  const sources = ownSources(kept.sources, offices);
  return { sources, sourcesOf: seenBy(sources) };
}

/** A time of day as the note says it (UTC, the logs' and the reports' time). */
function clockTime(at: Date): string {
  return `${at.toISOString().slice(11, 19)} UTC`;
}

/** Adds the note after `<body>` of every HTML page answered while Redis is away. */
function sayWhenAway(
  app: FastifyInstance,
  kept: KeptSources<OverviewSources>,
  languages: DashboardLanguages,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const away = kept.away();
    if (away === undefined || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const line = languages.of(request).t('dashboard.redis.away', {
      since: clockTime(away.since),
      asOf: away.asOf === undefined ? 'none' : clockTime(away.asOf),
    });
    const note = `<p class="redis-away" role="status">${escapeHtml(line)}</p>`;
    return payload.replace(/<body[^>]*>/, (body) => `${body}\n${note}`);
  });
}
