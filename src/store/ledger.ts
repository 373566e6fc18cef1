/**
 * The duplicates ledger (docs/design.md §3): each row's key — its `reference`, else a fingerprint of its
 * canonical payload — mapped to the order created for it. A row claims its key before creating;
 * a key already created elsewhere makes the row a `duplicate`, never a second order.
 */
import { createHash } from 'node:crypto';

import type { Redis } from 'ioredis';

import type { OrderPayload } from '../orders/row.js';
import type { Keys } from './keys.js';

/** Who holds a key: a sheet's row. */
export interface RowRef {
  sheetId: string;
  row: number;
}

export type Claim =
  /** Claimed now, or already held by this very row (a resumed job). */
  | { kind: 'mine' }
  | ({ kind: 'duplicate'; orderId: number } & RowRef)
  /** An earlier row with this key may or may not have created its order. */
  | ({ kind: 'unknown' } & RowRef)
  /** Another row is creating this order right now. */
  | ({ kind: 'busy' } & RowRef);

type EntryState = 'pending' | 'created' | 'unknown';

/** Entries are `state|sheetId|row|orderId`, so that Lua can compare owners without JSON. */
function encode(state: EntryState, ref: RowRef, orderId?: number): string {
  return `${state}|${ref.sheetId}|${ref.row}|${orderId ?? ''}`;
}

function decode(entry: string): { state: EntryState; ref: RowRef; orderId?: number } {
  const [state = 'pending', sheetId = '', row = '0', orderId = ''] = entry.split('|');
  return {
    state: state as EntryState,
    ref: { sheetId, row: Number(row) },
    ...(orderId !== '' && { orderId: Number(orderId) }),
  };
}

// KEYS: ledger. ARGV: field, owner marker `|sheetId|row|`. Deletes the field if the owner holds it.
const RELEASE = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.find(v, ARGV[2], 1, true) then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
`;

type ScriptedRedis = Redis & {
  oiRelease(ledger: string, field: string, owner: string): Promise<number>;
};

export class Ledger {
  readonly #redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly keys: Keys,
  ) {
    if (!('oiRelease' in redis))
      redis.defineCommand('oiRelease', { numberOfKeys: 1, lua: RELEASE });
    this.#redis = redis as ScriptedRedis;
  }

  async claim(key: string, me: RowRef): Promise<Claim> {
    const claimed = await this.#redis.hsetnx(this.keys.ledger, key, encode('pending', me));
    if (claimed === 1) return { kind: 'mine' };
    const entry = await this.#redis.hget(this.keys.ledger, key);
    if (entry === null) return this.claim(key, me); // released in between: try again
    const { state, ref, orderId } = decode(entry);
    if (ref.sheetId === me.sheetId && ref.row === me.row) {
      return state === 'created' && orderId !== undefined
        ? { kind: 'duplicate', orderId, ...ref }
        : { kind: 'mine' };
    }
    if (state === 'created' && orderId !== undefined) return { kind: 'duplicate', orderId, ...ref };
    return state === 'unknown' ? { kind: 'unknown', ...ref } : { kind: 'busy', ...ref };
  }

  /** The order exists: later rows with this key are duplicates of it. */
  async confirm(key: string, me: RowRef, orderId: number): Promise<void> {
    await this.#redis.hset(this.keys.ledger, key, encode('created', me, orderId));
  }

  /** The create's outcome is unknown: later rows with this key need a person to look. */
  async markUnknown(key: string, me: RowRef): Promise<void> {
    await this.#redis.hset(this.keys.ledger, key, encode('unknown', me));
  }

  /** No order was made (the API refused it): the key is free again. */
  async release(key: string, me: RowRef): Promise<void> {
    await this.#redis.oiRelease(this.keys.ledger, key, `|${me.sheetId}|${me.row}|`);
  }

  async lookup(
    key: string,
  ): Promise<{ state: EntryState; ref: RowRef; orderId?: number } | undefined> {
    const entry = await this.#redis.hget(this.keys.ledger, key);
    return entry === null ? undefined : decode(entry);
  }
}

/**
 * A row's ledger key: its reference when it has one, else a fingerprint of what would be sent
 * (fields in a fixed order, and the attachment paths), scoped to the API it goes to.
 */
export function ledgerKey(
  scope: string,
  row: { reference?: string | undefined; order: OrderPayload; files: readonly string[] },
): string {
  if (row.reference !== undefined) return `${scope}|ref|${row.reference}`;
  const canonical = JSON.stringify([
    Object.keys(row.order)
      .sort()
      .map((k) => [k, row.order[k as keyof OrderPayload]]),
    row.files,
  ]);
  return `${scope}|fp|${createHash('sha256').update(canonical).digest('hex')}`;
}
