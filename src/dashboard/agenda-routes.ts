/**
 * The agenda's routes (docs/design.md "The agenda"): `/agenda` and its downloads, each limited to
 * the offices the viewer sees, and each office's calendar feed `/agenda/<office>.ics?key=…`,
 * answered without a login (the guard lets exactly these paths through) but only with the
 * office's key; a wrong key, none, or an unknown office is the 404 of any unknown path. The key
 * is never logged: the dashboard's Fastify logs no request, and nothing here logs a URL.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { AgendaEntry } from '../store/agenda.js';
import { parseAgendaQuery, feedQuery, selectAgenda, type AgendaQuery } from './agenda-filter.js';
import { agendaCsv, agendaIcs, agendaXlsx } from './agenda-files.js';
import { agendaPage } from './agenda-page.js';
import type { PageAssets } from './assets.js';
import type { DashboardLanguages } from './language.js';
import { nowOf, type OverviewSources } from './overview.js';
import { sendFramed } from './pages.js';
import { SEES_ALL, viewerOf } from './viewer.js';

/** Where the agenda's inspections and the offices' feed keys come from. */
export interface AgendaSource {
  /** Every inspection kept for the dashboard's offices. */
  entries(): Promise<AgendaEntry[]>;
  /** An office's feed key; undefined for an office this dashboard does not know. */
  feedKey(office: string): Promise<string | undefined>;
  /** INSPECTION_MINUTES. */
  minutes: number;
  /** STATUS_DAYS, said on the page. */
  statusDays: number;
}

export function agendaRoutes(
  app: FastifyInstance,
  sources: Pick<OverviewSources, 'clock'> & { agenda?: AgendaSource },
  assets: PageAssets,
  languages: DashboardLanguages,
): void {
  const { agenda } = sources;
  if (agenda === undefined) return;
  app.get('/agenda', async (request, reply) => {
    const words = languages.of(request);
    const asked = parseAgendaQuery(request.query);
    const query = asked ?? {};
    const viewer = viewerOf(request);
    const list = selectAgenda(await agenda.entries(), query, viewer, nowOf(sources));
    const origin = `${request.protocol}://${request.host}`;
    const feeds: Array<{ office: string; url: string }> = [];
    for (const office of list.offices) {
      const key = await agenda.feedKey(office);
      if (key !== undefined)
        feeds.push({
          office,
          url: `${origin}/agenda/${encodeURIComponent(office)}.ics?key=${key}`,
        });
    }
    const view = { list, query, bad: asked === undefined, statusDays: agenda.statusDays, feeds };
    return sendFramed(reply, assets, { words, url: request.url }, 200, agendaPage(words, view));
  });
  app.get('/agenda.csv', async (request, reply) => {
    const list = await exported(request, reply, languages, agenda, sources);
    if (list === undefined) return reply;
    return download(reply, 'text/csv; charset=utf-8', 'agenda.csv').send(agendaCsv(list));
  });
  app.get('/agenda.xlsx', async (request, reply) => {
    const list = await exported(request, reply, languages, agenda, sources);
    if (list === undefined) return reply;
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    return download(reply, type, 'agenda.xlsx').send(await agendaXlsx(list));
  });
  app.get('/agenda.ics', async (request, reply) => {
    const list = await exported(request, reply, languages, agenda, sources);
    if (list === undefined) return reply;
    const words = languages.of(request);
    const text = agendaIcs(words, list, {
      minutes: agenda.minutes,
      now: nowOf(sources),
      name: words.t('dashboard.agenda.heading'),
    });
    return download(reply, 'text/calendar; charset=utf-8', 'agenda.ics').send(text);
  });
  app.get<{ Params: { file: string }; Querystring: unknown }>(
    '/agenda/:file',
    async (request, reply) => {
      const office = /^(.+)\.ics$/.exec(request.params.file)?.[1];
      const expected = office === undefined ? undefined : await agenda.feedKey(office);
      if (
        office === undefined ||
        expected === undefined ||
        !sameKey(keyOf(request.query), expected)
      ) {
        reply.callNotFound();
        return reply;
      }
      const now = nowOf(sources);
      const list = selectAgenda(
        await agenda.entries(),
        feedQuery(office, now),
        SEES_ALL,
        now,
      ).planned;
      const words = languages.of(request);
      const name = words.t('dashboard.agenda.ics.name', { office });
      return reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(agendaIcs(words, list, { minutes: agenda.minutes, now, name }));
    },
  );
}

/** The list a download holds: the same filters and viewer as the page; undefined when refused. */
async function exported(
  request: FastifyRequest,
  reply: FastifyReply,
  languages: DashboardLanguages,
  agenda: AgendaSource,
  sources: Pick<OverviewSources, 'clock'>,
): Promise<AgendaEntry[] | undefined> {
  const query: AgendaQuery | undefined = parseAgendaQuery(request.query);
  if (query === undefined) {
    const words = languages.of(request);
    await reply
      .code(400)
      .type('text/plain; charset=utf-8')
      .header('content-language', words.language)
      .send(`${words.t('dashboard.agenda.badQuery')}\n`);
    return undefined;
  }
  const list = selectAgenda(await agenda.entries(), query, viewerOf(request), nowOf(sources));
  return [...list.planned, ...list.unplanned];
}

function download(reply: FastifyReply, type: string, name: string): FastifyReply {
  return reply
    .type(type)
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${name}"`);
}

function keyOf(query: unknown): string {
  const key = (query as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' ? key : '';
}

/** Compared in constant time, whatever the lengths: the digests are. */
export function sameKey(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
