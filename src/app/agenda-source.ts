/**
 * The dashboard's agenda (docs/design.md "The agenda"): the inspections the status stage kept
 * (store/agenda.ts) for the connections it shows, and each office's feed key, the one its
 * connection entry gives or one kept in DATA_DIR (store/feed-keys.ts), for offices it knows only.
 */
import type { AgendaSource } from '../dashboard/agenda-reads.js';
import type { Settings } from '../settings/load.js';
import type { Context } from '../context.js';
import { type AgendaEntry, readAgenda } from '../store/agenda.js';
import { FeedKeys } from '../store/feed-keys.js';

export function agendaSource(
  settings: Pick<Settings, 'connections' | 'dataDir' | 'inspectionMinutes' | 'statusDays'>,
  read: () => Promise<AgendaEntry[]>,
): AgendaSource {
  const given = new Map<string, string>();
  for (const c of settings.connections)
    if (c.calendarKey !== undefined) given.set(c.name, c.calendarKey);
  const keys = new FeedKeys(settings.dataDir, given);
  const named = new Set(settings.connections.map((c) => c.name));
  return {
    entries: read,
    // The inspections as the dashboard reads them (bounded while Redis is away), and only for an
    // office the configuration does not name.
    feedKey: async (office, entries) => {
      const known = named.has(office) || (await entries()).some((e) => e.office === office);
      return known ? keys.keyOf(office) : undefined;
    },
    minutes: settings.inspectionMinutes,
    statusDays: settings.statusDays,
  };
}

/** What `watch`'s dashboard shows: the inspections kept for each of its connections. */
export function agendaOfContexts(
  contexts: ReadonlyArray<Pick<Context, 'redis' | 'keys' | 'connection'>>,
): () => Promise<AgendaEntry[]> {
  const first = contexts[0];
  if (first === undefined) return () => Promise.resolve([]);
  const ids = contexts.map((ctx) => ctx.connection.id);
  return () => readAgenda(first.redis, first.keys, ids);
}
