/**
 * The agenda's routes (docs/design.md "The agenda"): `/agenda`, limited to the offices the viewer
 * sees, with the addresses of their calendar feeds, and its files (agenda-downloads.ts). While
 * Redis is away, the inspections last read, or a 503 when none were (agenda-reads.ts).
 */
import type { FastifyInstance } from 'fastify';

import { agendaDownloads } from './agenda-downloads.js';
import { parseAgendaQuery, selectAgenda } from './agenda-filter.js';
import { agendaPage } from './agenda-page.js';
import { type AgendaSource, readOrAway } from './agenda-reads.js';
import type { PageAssets } from './assets.js';
import type { DashboardLanguages } from './language.js';
import { nowOf, type OverviewSources } from './overview.js';
import { sendFramed } from './pages.js';
import { viewerOf } from './viewer.js';

export type { AgendaSource } from './agenda-reads.js';

export function agendaRoutes(
  app: FastifyInstance,
  sources: Pick<OverviewSources, 'clock' | 'away'> & { agenda?: AgendaSource },
  assets: PageAssets,
  languages: DashboardLanguages,
): void {
  const { agenda } = sources;
  if (agenda === undefined) return;
  const away = sources.away;
  const reader = { languages, ...(away !== undefined && { away }) };
  app.get('/agenda', async (request, reply) => {
    const words = languages.of(request);
    const asked = parseAgendaQuery(request.query);
    const query = asked ?? {};
    const entries = await readOrAway({ ...reader, assets }, request, reply, () => agenda.entries());
    if (entries === undefined) return reply;
    const list = selectAgenda(entries, query, viewerOf(request), nowOf(sources));
    const origin = `${request.protocol}://${request.host}`;
    const feeds: Array<{ office: string; url: string }> = [];
    for (const office of list.offices) {
      const key = await agenda.feedKey(office, () => agenda.entries());
      if (key !== undefined)
        feeds.push({
          office,
          url: `${origin}/agenda/${encodeURIComponent(office)}.ics?key=${key}`,
        });
    }
    const view = { list, query, bad: asked === undefined, statusDays: agenda.statusDays, feeds };
    return sendFramed(reply, assets, { words, url: request.url }, 200, agendaPage(words, view));
  });
  agendaDownloads(app, { agenda, sources, reader });
}
