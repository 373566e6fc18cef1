/**
 * The dashboard's agenda (docs/design.md "The agenda"): the inspections the status stage kept
 * (store/agenda.ts) for the connections it shows, and each office's feed key, the one its
 * connection entry gives or one kept in DATA_DIR (store/feed-keys.ts), for offices it knows only.
 */
import type { AgendaSource } from '../dashboard/agenda-reads.js';
import type { Settings } from '../settings/load.js';
import type { Context } from '../context.js';
import type { AgendaEntry } from '../store/agenda.js';
import { FeedKeys } from '../store/feed-keys.js';
import { OfficesView, spacesOfStores } from '../store/offices.js';

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

/**
 * What `watch`'s dashboard reads of its connections, each in its key space (store/offices.ts):
 * their sheets, sheets not taken, and the inspections kept for the agenda.
 */
export function viewOfContexts(
  contexts: ReadonlyArray<Pick<Context, 'redis' | 'keys' | 'store' | 'notTaken' | 'connection'>>,
): OfficesView {
  return new OfficesView(
    spacesOfStores(contexts.map((ctx) => ({ ...ctx, connectionId: ctx.connection.id }))),
  );
}
