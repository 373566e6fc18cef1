/**
 * Where the agenda's routes read its inspections (docs/design.md "The agenda"), and what they
 * answer while Redis does not answer and no inspections were read yet (kept-agenda.ts keeps the
 * last ones read): 503 with Retry-After and the line saying that Redis does not answer. Never an
 * empty agenda: a person would take it for no visits, and a calendar client that subscribed to
 * an office's feed for every visit cancelled.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { isKnown } from '../errors.js';
import { DASHBOARD_AWAY_RETRY_S } from '../policy.js';
import type { AgendaEntry } from '../store/agenda.js';
import type { PageAssets } from './assets.js';
import { markup, say, titled } from './html.js';
import { type Away, awayLine } from './kept-sources.js';
import type { DashboardLanguages } from './language.js';
import { sendFramed } from './pages.js';

/** Where the agenda's inspections and the offices' feed keys come from. */
export interface AgendaSource {
  /** Every inspection kept for the dashboard's offices. */
  entries(): Promise<AgendaEntry[]>;
  /**
   * An office's feed key; undefined for an office this dashboard does not know. `entries`: the
   * inspections as the dashboard reads them, for an office it knows only from them.
   */
  feedKey(office: string, entries: () => Promise<AgendaEntry[]>): Promise<string | undefined>;
  /** INSPECTION_MINUTES. */
  minutes: number;
  /** STATUS_DAYS, said on the page. */
  statusDays: number;
}

/** What an agenda's route needs to answer while Redis is away. */
export interface AgendaReader {
  languages: DashboardLanguages;
  /** Redis not answering the dashboard (kept-sources.ts). */
  away?: () => Away | undefined;
  /** Given: the 503 is the agenda's page, which the away note heads; none: a line of text. */
  assets?: PageAssets;
}

/**
 * What `read` answers; undefined when Redis does not answer and nothing was read yet, the 503
 * then sent. Any other error is thrown, as any route's.
 */
export async function readOrAway<R>(
  reader: AgendaReader,
  request: FastifyRequest,
  reply: FastifyReply,
  read: () => Promise<R>,
): Promise<R | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!isKnown(error, 'dashboard.redis-away')) throw error;
    const words = reader.languages.of(request);
    void reply.header('retry-after', String(DASHBOARD_AWAY_RETRY_S));
    if (reader.assets !== undefined) {
      // The note saying that Redis does not answer is added to every page (page-sources.ts).
      const heading = say(words, 'dashboard.agenda.heading');
      const main = `<header class="title"><h1>${heading}</h1></header>`;
      const page = { title: titled(words, markup(heading)), main };
      await sendFramed(reply, reader.assets, { words, url: request.url }, 503, page);
      return undefined;
    }
    const away = reader.away?.() ?? { since: new Date(), asOf: undefined };
    await reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .header('content-language', words.language)
      .header('cache-control', 'no-store')
      .send(`${awayLine(words, { since: away.since, asOf: undefined })}\n`);
    return undefined;
  }
}
