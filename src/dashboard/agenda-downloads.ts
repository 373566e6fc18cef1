/**
 * The agenda's files: `/agenda.csv`, `.xlsx` and `.ics`, with the page's filters and viewer, and
 * each office's calendar feed `/agenda/<office>.ics?key=…`, answered without a login (the guard
 * lets exactly these paths through) but only with the office's key; a wrong key, none, or an
 * unknown office is the 404 of any unknown path. The key is never logged: the dashboard's Fastify
 * logs no request, and nothing here logs a URL. While Redis is away, each answers from the
 * inspections last read, or 503 when none were (agenda-reads.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { feedQuery, parseAgendaQuery, selectAgenda, type AgendaQuery } from './agenda-filter.js';
import { agendaCsv, agendaIcs, agendaXlsx } from './agenda-files.js';
import { type AgendaReader, type AgendaSource, readOrAway } from './agenda-reads.js';
import type { AgendaEntry } from '../store/agenda.js';
import { nowOf, type OverviewSources } from './overview.js';
import { SEES_ALL, viewerOf } from './viewer.js';

/** What the files are made of: the agenda, the clock, and how to answer while Redis is away. */
export interface AgendaFiles {
  agenda: AgendaSource;
  sources: Pick<OverviewSources, 'clock'>;
  /** Its answers while Redis is away are lines of text (no `assets`). */
  reader: AgendaReader;
}

export function agendaDownloads(app: FastifyInstance, files: AgendaFiles): void {
  const { agenda, sources } = files;
  app.get('/agenda.csv', async (request, reply) => {
    const list = await exported(request, reply, files);
    if (list === undefined) return reply;
    return download(reply, 'text/csv; charset=utf-8', 'agenda.csv').send(agendaCsv(list));
  });
  app.get('/agenda.xlsx', async (request, reply) => {
    const list = await exported(request, reply, files);
    if (list === undefined) return reply;
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    return download(reply, type, 'agenda.xlsx').send(await agendaXlsx(list));
  });
  app.get('/agenda.ics', async (request, reply) => {
    const list = await exported(request, reply, files);
    if (list === undefined) return reply;
    const words = files.reader.languages.of(request);
    const text = agendaIcs(words, list, {
      minutes: agenda.minutes,
      now: nowOf(sources),
      name: words.t('dashboard.agenda.heading'),
    });
    return download(reply, 'text/calendar; charset=utf-8', 'agenda.ics').send(text);
  });
  app.get<{ Params: { file: string }; Querystring: unknown }>('/agenda/:file', (request, reply) =>
    feed(request, reply, files),
  );
}

/**
 * An office's feed. While Redis is away it is the inspections last read; none read yet, a 503 with
 * Retry-After: a calendar client replaces what it shows with what the feed answers, so an empty
 * calendar would take every visit out of the inspectors' calendars, and a 404 may make it drop
 * the subscription, while a 503 is a failure it rides out, keeping the visits it has.
 */
async function feed(
  request: FastifyRequest<{ Params: { file: string }; Querystring: unknown }>,
  reply: FastifyReply,
  { agenda, sources, reader }: AgendaFiles,
): Promise<FastifyReply> {
  const office = /^(.+)\.ics$/.exec(request.params.file)?.[1];
  const expected = await readOrAway(reader, request, reply, async () =>
    office === undefined
      ? { key: undefined }
      : { key: await agenda.feedKey(office, () => agenda.entries()) },
  );
  if (expected === undefined) return reply;
  if (
    office === undefined ||
    expected.key === undefined ||
    !sameKey(keyOf(request.query), expected.key)
  ) {
    reply.callNotFound();
    return reply;
  }
  const entries = await readOrAway(reader, request, reply, () => agenda.entries());
  if (entries === undefined) return reply;
  const now = nowOf(sources);
  const list = selectAgenda(entries, feedQuery(office, now), SEES_ALL, now).planned;
  const words = reader.languages.of(request);
  const name = words.t('dashboard.agenda.ics.name', { office });
  return reply
    .type('text/calendar; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(agendaIcs(words, list, { minutes: agenda.minutes, now, name }));
}

/** The list a download holds: the same filters and viewer as the page; undefined when refused. */
async function exported(
  request: FastifyRequest,
  reply: FastifyReply,
  { agenda, sources, reader }: AgendaFiles,
): Promise<AgendaEntry[] | undefined> {
  const query: AgendaQuery | undefined = parseAgendaQuery(request.query);
  if (query === undefined) {
    const words = reader.languages.of(request);
    await reply
      .code(400)
      .type('text/plain; charset=utf-8')
      .header('content-language', words.language)
      .send(`${words.t('dashboard.agenda.badQuery')}\n`);
    return undefined;
  }
  const entries = await readOrAway(reader, request, reply, () => agenda.entries());
  if (entries === undefined) return undefined;
  const list = selectAgenda(entries, query, viewerOf(request), nowOf(sources));
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
