/**
 * The sources the dashboard's pages read: its offices' own (overview.ts), as each request's viewer
 * sees them (seen.ts), every read bounded while Redis is away (kept-sources.ts, kept-agenda.ts);
 * and the line every HTML page then shows: that Redis does not answer, and as of when what the
 * page shows was read.
 */
import type { FastifyInstance } from 'fastify';

import { escapeHtml } from './html.js';
import { DASHBOARD_REDIS_WAIT_MS } from '../policy.js';
import type { AgendaSource } from './agenda-reads.js';
import { keptAgenda } from './kept-agenda.js';
import { type Away, awayLine, keptSources } from './kept-sources.js';
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
export function pageSources<T extends OverviewSources & { agenda?: AgendaSource }>(
  app: FastifyInstance,
  given: T,
  languages: DashboardLanguages,
  offices: readonly DashboardOffice[] | undefined,
): { sources: T; sourcesOf: SourcesOf } {
  const kept = keptSources(given, DASHBOARD_REDIS_WAIT_MS);
  const agenda = given.agenda === undefined ? undefined : keptAgenda(given.agenda, kept.reads);
  sayWhenAway(
    app,
    (path) => {
      const away = kept.away();
      // The agenda's page says as of when its inspections, not the imports, were read.
      return away === undefined || path !== '/agenda' ? away : { ...away, asOf: agenda?.asOf() };
    },
    languages,
  );
  const sources = ownSources(
    agenda === undefined ? kept.sources : { ...kept.sources, agenda: agenda.agenda },
    offices,
  );
  return { sources, sourcesOf: seenBy(sources) };
}

/** Adds the note after `<body>` of every HTML page answered while Redis is away. */
function sayWhenAway(
  app: FastifyInstance,
  awayFor: (routePath: string | undefined) => Away | undefined,
  languages: DashboardLanguages,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const away = awayFor(request.routeOptions.url);
    if (away === undefined || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const line = awayLine(languages.of(request), away);
    const note = `<p class="redis-away" role="status">${escapeHtml(line)}</p>`;
    return payload.replace(/<body[^>]*>/, (body) => `${body}\n${note}`);
  });
}
