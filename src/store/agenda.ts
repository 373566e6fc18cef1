/**
 * The agenda's store (docs/design.md "The agenda"): every inspection the status stage read back,
 * per connection, by its UID (`<order_id>-<product_id>-<k>`), with what a calendar needs to say a
 * change (its SEQUENCE, raised when the date or the inspector differs from what was kept) and
 * when the order was first seen cancelled. Entries not read back for STATUS_DAYS are trimmed.
 */
import type { Redis } from 'ioredis';

import type { Keys } from './keys.js';

/** One inspection as the agenda shows it and a calendar feed says it. */
export interface AgendaEntry {
  /** `<order_id>-<product_id>-<k>`, k counting that product's inspections in the order from 1. */
  uid: string;
  /** The office: its connection's name. */
  office: string;
  sheetId: string;
  sheetName: string;
  row: number;
  reference: string;
  orderId: number;
  productId: string;
  productName: string;
  /** `YYYY-MM-DD HH:MM:SS`, the API's wall-clock time (Europe/Brussels); empty until planned. */
  date: string;
  inspector: string;
  /** The order's status, the API's word (or `not found`). */
  status: string;
  address: string;
  contact: string;
  phone: string;
  /** Raised each time the date or the inspector changed. */
  sequence: number;
  /** When the order was first seen cancelled (ISO); absent while it is not. */
  cancelledAt?: string;
  /** When it was last read back (ISO). */
  checkedAt: string;
}

/** An entry as read now, before what was kept of it is known. */
export type ReadEntry = Omit<AgendaEntry, 'sequence' | 'cancelledAt'>;

export const CANCELLED = 'cancelled';

/** The entry to keep: `now` merged with what was kept, its sequence and cancelled-since carried on. */
export function mergeEntry(kept: AgendaEntry | undefined, now: ReadEntry): AgendaEntry {
  const changed =
    kept !== undefined && (kept.date !== now.date || kept.inspector !== now.inspector);
  const sequence = kept === undefined ? 0 : kept.sequence + (changed ? 1 : 0);
  const cancelled = now.status === CANCELLED;
  const cancelledAt = cancelled ? (kept?.cancelledAt ?? now.checkedAt) : undefined;
  return { ...now, sequence, ...(cancelledAt !== undefined && { cancelledAt }) };
}

export function agendaKey(keys: Keys, connectionId: string): string {
  return `${keys.prefix}:importer:agenda:${connectionId}`;
}

/** The same entries by when they were last read back (sorted set), to trim the old ones. */
export function checkedKey(keys: Keys, connectionId: string): string {
  return `${agendaKey(keys, connectionId)}:checked`;
}

function parsed(text: string | null | undefined): AgendaEntry | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as AgendaEntry;
  } catch (error) {
    // A damaged entry is as good as none: the next read back writes it whole again.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Keeps the inspections of one order read back now; each merged with what was kept. An order is
 * read by one status job at a time, so no other writer changes its entries meanwhile.
 */
export async function recordAgenda(
  redis: Redis,
  keys: Keys,
  connectionId: string,
  entries: readonly ReadEntry[],
  /** Entries last read back before this (ms since the epoch) are trimmed. */
  trimBefore: number,
): Promise<void> {
  const key = agendaKey(keys, connectionId);
  const checked = checkedKey(keys, connectionId);
  if (entries.length > 0) {
    const kept = await redis.hmget(key, ...entries.map((e) => e.uid));
    const merged = entries.map((entry, i) => mergeEntry(parsed(kept[i]), entry));
    const multi = redis.multi();
    multi.hset(key, Object.fromEntries(merged.map((e) => [e.uid, JSON.stringify(e)])));
    for (const e of merged) multi.zadd(checked, Date.parse(e.checkedAt), e.uid);
    await multi.exec();
  }
  const old = await redis.zrangebyscore(checked, '-inf', `(${trimBefore}`);
  if (old.length > 0)
    await redis
      .multi()
      .hdel(key, ...old)
      .zrem(checked, ...old)
      .exec();
}

/** Every entry kept for these connections. */
export async function readAgenda(
  redis: Redis,
  keys: Keys,
  connectionIds: readonly string[],
): Promise<AgendaEntry[]> {
  const all: AgendaEntry[] = [];
  for (const id of connectionIds) {
    const values = await redis.hvals(agendaKey(keys, id));
    for (const value of values) {
      const entry = parsed(value);
      if (entry !== undefined) all.push(entry);
    }
  }
  return all;
}
