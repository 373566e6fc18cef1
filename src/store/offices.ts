/**
 * What the dashboard reads across an installation's offices (its overview, a sheet, its rows, the
 * sheets not taken, the agenda), over each key space (keys.ts, `KeyLayout`) and merged: one space
 * on a single server, where the offices share their keys as they always did; one per office on a
 * Cluster, each on its office's shard.
 */
import type { Redis } from 'ioredis';

import { type AgendaEntry, readAgenda } from './agenda.js';
import type { KeySpace } from './keys.js';
import { NotTaken, type NotTakenEntry } from './not-taken.js';
import { recentProgress, type SheetDetail, sheetDetail, type SheetProgress } from './progress.js';
import { SheetStore } from './sheet-store.js';

/** One key space's stores, and the offices whose keys it holds. */
export interface OfficeSpace {
  redis: Redis;
  space: KeySpace;
  store: SheetStore;
  notTaken: NotTaken;
}

/** The stores of each key space, on one client. */
export function officeSpaces(redis: Redis, spaces: readonly KeySpace[]): OfficeSpace[] {
  return spaces.map((space) => ({
    redis,
    space,
    store: new SheetStore(redis, space.keys),
    notTaken: new NotTaken(redis, space.keys),
  }));
}

/**
 * The spaces of opened stores, one per office (a process's contexts): those of one prefix are one
 * space, read through the first of them.
 */
export function spacesOfStores(
  opened: ReadonlyArray<{
    redis: Redis;
    keys: KeySpace['keys'];
    store: SheetStore;
    notTaken: NotTaken;
    connectionId: string;
  }>,
): OfficeSpace[] {
  const byPrefix = new Map<string, OfficeSpace>();
  for (const { redis, keys, store, notTaken, connectionId } of opened) {
    const known = byPrefix.get(keys.prefix);
    if (known !== undefined) known.space.offices.push(connectionId);
    else
      byPrefix.set(keys.prefix, {
        redis,
        store,
        notTaken,
        space: { keys, offices: [connectionId] },
      });
  }
  return [...byPrefix.values()];
}

/** Sheets whose space is remembered (a Cluster's): the latest looked at, a page's worth and more. */
const HOMES_KEPT = 1000;

export class OfficesView {
  /** Which space holds a sheet, once found (a sheet never moves); the oldest forgotten first. */
  readonly #homes = new Map<string, OfficeSpace>();

  constructor(readonly spaces: readonly OfficeSpace[]) {}

  /** Whether a connection is one of the offices'. */
  owns(connectionId: string): boolean {
    return this.spaces.some(({ space }) => space.offices.includes(connectionId));
  }

  /** The latest `limit` sheets of the offices, newest first. */
  async overview(limit = 200): Promise<SheetProgress[]> {
    const each = await Promise.all(
      this.spaces.map(({ store, space }) => recentProgress(store, limit, new Set(space.offices))),
    );
    const seen = new Set<string>();
    return each
      .flat()
      .filter((sheet) => !seen.has(sheet.sheetId) && seen.add(sheet.sheetId))
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .slice(0, limit);
  }

  /** One sheet of the offices with its warnings; undefined for a sheet not known here. */
  async sheet(sheetId: string): Promise<SheetDetail | undefined> {
    const home = await this.#homeOf(sheetId);
    return home === undefined ? undefined : sheetDetail(home.store, sheetId);
  }

  /** The results of the rows of a sheet not reported yet, from its office's space. */
  get results(): Pick<SheetStore, 'outcomes' | 'scanOutcomes'> {
    return {
      outcomes: async (sheetId, rows) =>
        (await this.#homeOf(sheetId))?.store.outcomes(sheetId, rows) ?? rows.map(() => undefined),
      scanOutcomes: async (sheetId, cursor, count) =>
        (await this.#homeOf(sheetId))?.store.scanOutcomes(sheetId, cursor, count) ?? {
          cursor: '0',
          outcomes: [],
        },
    };
  }

  /** What the offices' hot folders did not take, and why, newest first. */
  async notTaken(limit = 50): Promise<NotTakenEntry[]> {
    const each = await Promise.all(
      this.spaces.map(({ notTaken, space }) => notTaken.recent(limit, new Set(space.offices))),
    );
    return each
      .flat()
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, limit);
  }

  /** The inspections the status stage kept for the agenda, of the offices. */
  async agenda(): Promise<AgendaEntry[]> {
    const each = await Promise.all(
      this.spaces.map(({ redis, space }) => readAgenda(redis, space.keys, space.offices)),
    );
    return each.flat();
  }

  /** The space whose offices' sheet this is: its record there names one of them. */
  async #homeOf(sheetId: string): Promise<OfficeSpace | undefined> {
    // One server: one space, as the dashboard always read it (its sources keep to the offices).
    if (this.spaces.length === 1) return this.spaces[0];
    const known = this.#homes.get(sheetId);
    if (known !== undefined) return known;
    for (const home of this.spaces) {
      const [owner] = await home.store.connectionsOf([sheetId]);
      if (owner === undefined || !home.space.offices.includes(owner)) continue;
      this.#homes.set(sheetId, home);
      const oldest = this.#homes.keys().next().value;
      if (this.#homes.size > HOMES_KEPT && oldest !== undefined) this.#homes.delete(oldest);
      return home;
    }
    return undefined;
  }
}
