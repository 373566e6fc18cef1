/**
 * The dashboard's offices (docs/design.md "The dashboard's users", "One installation, one
 * namespace"): the connections of its own configuration, by id and name. What it lists, counts,
 * searches, pages and hands out is theirs only; a sheet of another installation sharing the Redis
 * is answered as one it does not know. Their queues are shown by office name (`gent · rows`).
 */
import { queueNames } from '../store/keys.js';
import type { DashboardOffice, OverviewSources } from './overview.js';

export type { DashboardOffice };

/** The sources limited to the offices' own sheets and sheets not taken; none given: as they are. */
export function ownSources<T extends OverviewSources>(
  sources: T,
  offices: readonly DashboardOffice[] | undefined,
): T {
  if (offices === undefined) return sources;
  const ids = new Set(offices.map((office) => office.id));
  const own = (connectionId: string | undefined) =>
    connectionId !== undefined && ids.has(connectionId);
  const { sheet, notTaken } = sources;
  return {
    ...sources,
    overview: async () => (await sources.overview()).filter((s) => own(s.connectionId)),
    ...(sheet !== undefined && {
      sheet: async (sheetId: string) => {
        const found = await sheet(sheetId);
        return found !== undefined && own(found.connectionId) ? found : undefined;
      },
    }),
    ...(notTaken !== undefined && {
      notTaken: async () => (await notTaken()).filter((entry) => own(entry.connectionId)),
    }),
  };
}

/** What bull-board calls each queue of the offices: `gent · rows`, never its hashed name. */
export function queueDisplayNames(
  offices: readonly DashboardOffice[] | undefined,
): Map<string, string> {
  return new Map(
    (offices ?? []).flatMap((office) =>
      Object.entries(queueNames(office.id)).map(
        ([kind, queue]) => [queue, `${office.name} · ${kind}`] as const,
      ),
    ),
  );
}
