/**
 * Which inspections the agenda shows (docs/design.md "The agenda"): the viewer's offices only,
 * filtered by office, period (by the day in Brussels, the API's wall clock) and status; the ones
 * not planned yet apart; a cancelled one for 7 days after it was first seen cancelled.
 */
import { z } from 'zod';

import { TIME_ZONE } from '../language/words.js';
import { type AgendaEntry, CANCELLED } from '../store/agenda.js';
import type { Viewer } from './viewer.js';
import { AGENDA_CANCELLED_SHOWN_MS, AGENDA_DAYS, FEED_DAYS, FEED_PAST_DAYS } from '../policy.js';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(v);
  });

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const querySchema = z.object({
  office: optional(z.string().max(100)),
  from: optional(day),
  to: optional(day),
  status: optional(z.string().max(200)),
});

export interface AgendaQuery {
  office?: string;
  from?: string;
  to?: string;
  status?: string;
}

/** The filters a request asks for; undefined when one is not what it should be. */
export function parseAgendaQuery(query: unknown): AgendaQuery | undefined {
  const parsed = querySchema.safeParse(query ?? {});
  if (!parsed.success) return undefined;
  const out: AgendaQuery = {};
  for (const key of ['office', 'from', 'to', 'status'] as const) {
    const value = parsed.data[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** The date (`YYYY-MM-DD`) on the wall clock in Brussels at `at`. */
export function brusselsDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** `YYYY-MM-DD` plus `days`. */
export function plusDays(date: string, days: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The days shown, both included: as asked, else from today to 30 days on. */
export function periodOf(query: AgendaQuery, now: Date): { from: string; to: string } {
  const from = query.from ?? brusselsDay(now);
  const to = query.to ?? plusDays(from, AGENDA_DAYS);
  return from <= to ? { from, to } : { from: to, to: from };
}

export interface AgendaList {
  /** Planned inspections in the period, by date. */
  planned: AgendaEntry[];
  /** Inspections not planned yet, by sheet and row. */
  unplanned: AgendaEntry[];
  period: { from: string; to: string };
  /** The offices the viewer may filter by. */
  offices: string[];
  /** The statuses found among them, for the status filter. */
  statuses: string[];
}

/** Whether a cancelled inspection is still shown at `now`. */
export function stillShown(entry: AgendaEntry, now: Date): boolean {
  if (entry.status !== CANCELLED) return true;
  const since = Date.parse(entry.cancelledAt ?? entry.checkedAt);
  return !(now.getTime() - since > AGENDA_CANCELLED_SHOWN_MS);
}

export function selectAgenda(
  entries: readonly AgendaEntry[],
  query: AgendaQuery,
  viewer: Viewer,
  now: Date,
): AgendaList {
  const seen = entries.filter((e) => viewer.sees(e.office) && stillShown(e, now));
  const period = periodOf(query, now);
  const chosen = seen.filter(
    (e) =>
      (query.office === undefined || e.office === query.office) &&
      (query.status === undefined || e.status === query.status),
  );
  const planned = chosen
    .filter((e) => e.date !== '')
    .filter((e) => {
      const d = e.date.slice(0, 10);
      return d >= period.from && d <= period.to;
    })
    .sort((a, b) => a.date.localeCompare(b.date) || a.uid.localeCompare(b.uid));
  const unplanned = chosen
    .filter((e) => e.date === '')
    .sort((a, b) => a.sheetId.localeCompare(b.sheetId) || a.row - b.row);
  return {
    planned,
    unplanned,
    period,
    offices: [...new Set(seen.map((e) => e.office))].sort(),
    statuses: [...new Set(seen.map((e) => e.status))].sort(),
  };
}

/** What an office's calendar feed holds: its visits of the last weeks and every one to come. */
export function feedQuery(office: string, now: Date): AgendaQuery {
  const from = plusDays(brusselsDay(now), -FEED_PAST_DAYS);
  return { office, from, to: plusDays(from, FEED_DAYS) };
}
