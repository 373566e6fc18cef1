/**
 * The agenda while Redis is away (docs/design.md "Outages, said once"): its inspections read
 * within the dashboard's bounded reads (kept-sources.ts), so that /agenda, its downloads and the
 * offices' feeds answer within 2 s from the inspections last read; none read yet, a NotYet
 * `dashboard.redis-away` that agenda-routes.ts answers with 503.
 */
import { isKnown } from '../errors.js';
import type { AgendaEntry } from '../store/agenda.js';
import type { AgendaSource } from './agenda-reads.js';
import { awayError, type BoundedReads } from './kept-sources.js';

export interface KeptAgenda {
  agenda: AgendaSource;
  /** When the inspections answered were read; undefined: none was read yet. */
  asOf(): Date | undefined;
}

export function keptAgenda(
  given: AgendaSource,
  reads: BoundedReads,
  now: () => Date = () => new Date(),
): KeptAgenda {
  let last: { entries: AgendaEntry[]; at: Date } | undefined;
  const entries = async () => {
    try {
      return await reads.read(
        async () => {
          const read = await given.entries();
          last = { entries: read, at: now() };
          return read;
        },
        () => last?.entries,
      );
    } catch (error) {
      // Whatever Redis answered (a refused command, none in time): the routes' 503.
      throw isKnown(error, 'dashboard.redis-away')
        ? error
        : awayError(`Redis does not answer: ${String(error)}`, error);
    }
  };
  const agenda: AgendaSource = {
    ...given,
    entries,
    // Its office's key is on disk; the inspections it may look at are the bounded ones.
    feedKey: (office) => given.feedKey(office, entries),
  };
  return { agenda, asOf: () => last?.at };
}
