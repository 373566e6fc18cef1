/**
 * The duplicates ledger (docs/design.md §3): each row's key — its `reference`, else a fingerprint of its
 * canonical payload — mapped to the order created for it. A row claims its key before creating;
 * a key already created elsewhere makes the row a `duplicate`, never a second order.
 *
 * Kept compact (16 bytes of the key's hash, the sheet as a number: a few dozen bytes of Redis per
 * row, see ledger-scripts.ts) and for LEDGER_DAYS from the day an entry was last written: a row
 * whose order was made longer ago than that is imported again.
 */
import { createHash } from 'node:crypto';

import type { Redis } from 'ioredis';

import type { OrderPayload } from '../orders/row.js';
import type { Keys } from './keys.js';
import { CLAIM, LOOKUP, RELEASE, SHEET_NUMBER, WRITE } from './ledger-scripts.js';
import { LEDGER_DAYS } from '../policy.js';

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

/**
 * The ledger's part in a script that does more (row-progress.ts): KEYS its shape and sheet
 * numbers; ARGV today, LEDGER_DAYS, the time to live, the field, the entry, the owner's marker.
 */
export interface LedgerArgs {
  keys: [shape: string, sheets: string];
  args: [
    today: string,
    days: string,
    ttlMs: string,
    field: Buffer | '',
    entry: string,
    marker: string,
  ];
}

export interface LedgerEntry {
  state: EntryState;
  ref: RowRef;
  orderId?: number;
}

export interface LedgerOptions {
  connectionId: string;
  /** How long an entry is remembered (LEDGER_DAYS; its default when not said). */
  ledgerDays?: number | undefined;
  now: () => number;
}

const DAY_MS = 86_400_000;
const STATE_LETTER = { pending: 'p', created: 'c', unknown: 'u' } as const;
const LETTER_STATE: Record<string, EntryState> = { p: 'pending', c: 'created', u: 'unknown' };

/** An entry as kept: `<state><day>.<sheet>.<row>.<orderId>` in base 36 (see ledger-scripts.ts). */
interface Stored {
  state: EntryState;
  sheet: number;
  row: number;
  orderId?: number;
}

function encode(entry: Stored, day: number): string {
  const orderId = entry.orderId === undefined ? '' : entry.orderId.toString(36);
  return `${STATE_LETTER[entry.state]}${day.toString(36)}${ownerMarker(entry.sheet, entry.row)}${orderId}`;
}

function ownerMarker(sheet: number, row: number): string {
  return `.${sheet.toString(36)}.${row.toString(36)}.`;
}

function decode(text: string): Stored {
  const [head = '', sheet = '0', row = '0', orderId = ''] = text.split('.');
  return {
    state: LETTER_STATE[head.charAt(0)] ?? 'pending',
    sheet: parseInt(sheet, 36),
    row: parseInt(row, 36),
    ...(orderId !== '' && { orderId: parseInt(orderId, 36) }),
  };
}

/** A row key as the ledger keeps it: 16 bytes of its sha256, whatever the key's length. */
function fieldOf(key: string): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, 16);
}

type LedgerCall = (
  shape: string,
  sheets: string,
  today: number,
  days: number,
  ttlMs: number,
  field: Buffer,
  arg?: string,
) => Promise<string | number | null>;

type ScriptedRedis = Redis & {
  oiLedgerClaim: LedgerCall;
  oiLedgerWrite: LedgerCall;
  oiLedgerRelease: LedgerCall;
  oiLedgerLookup: LedgerCall;
  oiLedgerSheet(sheets: string, sheetId: string, ttlMs: number): Promise<number>;
};

function defineScripts(redis: Redis): ScriptedRedis {
  if (!('oiLedgerClaim' in redis)) {
    redis.defineCommand('oiLedgerClaim', { numberOfKeys: 2, lua: CLAIM });
    redis.defineCommand('oiLedgerWrite', { numberOfKeys: 2, lua: WRITE });
    redis.defineCommand('oiLedgerRelease', { numberOfKeys: 2, lua: RELEASE });
    redis.defineCommand('oiLedgerLookup', { numberOfKeys: 2, lua: LOOKUP });
    redis.defineCommand('oiLedgerSheet', { numberOfKeys: 1, lua: SHEET_NUMBER });
  }
  return redis as ScriptedRedis;
}

/**
 * One connection's ledger. Entries are kept compact (a hashed key, the sheet as a short number)
 * and for `ledgerDays` from the day they were last written.
 */
export class Ledger {
  readonly #redis: ScriptedRedis;
  readonly #shape: string;
  readonly #sheets: string;
  readonly #options: Required<LedgerOptions>;
  /** Sheet ids by their number and back: a sheet's number never changes while it is remembered. */
  readonly #numbers = new Map<string, number>();
  readonly #ids = new Map<number, string>();

  constructor(redis: Redis, keys: Keys, options: LedgerOptions) {
    this.#redis = defineScripts(redis);
    this.#shape = keys.ledgerOf(options.connectionId);
    this.#sheets = `${this.#shape}:sheets`;
    this.#options = { ...options, ledgerDays: options.ledgerDays ?? LEDGER_DAYS };
  }

  async claim(key: string, me: RowRef): Promise<Claim> {
    const { args } = await this.claimArgs(key, me);
    const found = await this.#call(this.#redis.oiLedgerClaim, key, args[4]);
    return typeof found === 'string' ? this.verdict(found, me) : { kind: 'mine' };
  }

  /**
   * What a live entry found for `me`'s key means: held by this very row (a resumed job), made by
   * another row before (a duplicate), unclear, or being made right now.
   */
  async verdict(found: string, me: RowRef): Promise<Claim> {
    const sheet = await this.#sheetNumber(me.sheetId);
    const { state, orderId, ...held } = decode(found);
    const ref = { sheetId: await this.#sheetId(held.sheet), row: held.row };
    if (held.sheet === sheet && held.row === me.row) {
      return state === 'created' && orderId !== undefined
        ? { kind: 'duplicate', orderId, ...ref }
        : { kind: 'mine' };
    }
    if (state === 'created' && orderId !== undefined) return { kind: 'duplicate', orderId, ...ref };
    return state === 'unknown' ? { kind: 'unknown', ...ref } : { kind: 'busy', ...ref };
  }

  /**
   * A claim of `key` for `me` as a script of a larger step makes it (store/row-progress.ts): the
   * ledger's keys and the arguments of ledger-scripts.ts, the pending entry and its owner's
   * marker last.
   */
  async claimArgs(key: string, me: RowRef): Promise<LedgerArgs> {
    const sheet = await this.#sheetNumber(me.sheetId);
    const pending = encode({ state: 'pending', sheet, row: me.row }, this.#today());
    return this.#args(key, pending, ownerMarker(sheet, me.row));
  }

  /** The same for writing `me`'s order as created. */
  async createdArgs(key: string, me: RowRef, orderId: number): Promise<LedgerArgs> {
    const sheet = await this.#sheetNumber(me.sheetId);
    const entry = encode({ state: 'created', sheet, row: me.row, orderId }, this.#today());
    return this.#args(key, entry, ownerMarker(sheet, me.row));
  }

  /** Its keys and no entry: a larger script that touches none of it. */
  get untouched(): LedgerArgs {
    return { keys: [this.#shape, this.#sheets], args: ['', '', '', '', '', ''] };
  }

  #args(key: string, entry: string, marker: string): LedgerArgs {
    return {
      keys: [this.#shape, this.#sheets],
      args: [
        String(this.#today()),
        String(this.#options.ledgerDays),
        String(this.#ttlMs()),
        fieldOf(key),
        entry,
        marker,
      ],
    };
  }

  /** The order exists: later rows with this key are duplicates of it. */
  async confirm(key: string, me: RowRef, orderId: number): Promise<void> {
    await this.#write(key, 'created', me, orderId);
  }

  /** The create's outcome is unknown: later rows with this key need a person to look. */
  async markUnknown(key: string, me: RowRef): Promise<void> {
    await this.#write(key, 'unknown', me);
  }

  /** No order was made (the API refused it): the key is free again. */
  async release(key: string, me: RowRef): Promise<void> {
    const marker = ownerMarker(await this.#sheetNumber(me.sheetId), me.row);
    await this.#call(this.#redis.oiLedgerRelease, key, marker);
  }

  async lookup(key: string): Promise<LedgerEntry | undefined> {
    const found = await this.#call(this.#redis.oiLedgerLookup, key);
    if (typeof found !== 'string') return undefined;
    const { sheet, row, ...rest } = decode(found);
    return { ...rest, ref: { sheetId: await this.#sheetId(sheet), row } };
  }

  /** Whether an entry written at `at` (ms) is remembered still: LEDGER_DAYS whole days after. */
  remembers(at: number): boolean {
    return this.#today() - Math.floor(at / DAY_MS) <= this.#options.ledgerDays;
  }

  /**
   * An entry of the ledger as versions before this one kept it (`state|sheetId|row|orderId`),
   * remembered from the day it was made (`madeAt`, ms: a rebuilt ledger forgets a row when the
   * one Redis lost would have; today when not known) unless the key already has one. Returns
   * whether it was taken.
   */
  async adopt(key: string, entry: string, madeAt?: number): Promise<boolean> {
    const [state = '', sheetId = '', row = '0', orderId = ''] = entry.split('|');
    const stored: Stored = {
      state: state === 'created' || state === 'unknown' ? state : 'pending',
      sheet: await this.#sheetNumber(sheetId),
      row: Number(row) || 0,
      ...(/^\d+$/.test(orderId) && { orderId: Number(orderId) }),
    };
    const day =
      madeAt === undefined ? this.#today() : Math.min(this.#today(), Math.floor(madeAt / DAY_MS));
    const found = await this.#call(this.#redis.oiLedgerClaim, key, encode(stored, day));
    return typeof found !== 'string';
  }

  async #write(key: string, state: EntryState, me: RowRef, orderId?: number): Promise<void> {
    const sheet = await this.#sheetNumber(me.sheetId);
    const entry = { state, sheet, row: me.row, ...(orderId !== undefined && { orderId }) };
    await this.#call(this.#redis.oiLedgerWrite, key, encode(entry, this.#today()));
  }

  #call(script: LedgerCall, key: string, arg?: string): Promise<string | number | null> {
    const today = this.#today();
    const { ledgerDays } = this.#options;
    const field = fieldOf(key);
    return arg === undefined
      ? script.call(this.#redis, this.#shape, this.#sheets, today, ledgerDays, this.#ttlMs(), field)
      : script.call(
          this.#redis,
          this.#shape,
          this.#sheets,
          today,
          ledgerDays,
          this.#ttlMs(),
          field,
          arg,
        );
  }

  #today(): number {
    return Math.floor(this.#options.now() / DAY_MS);
  }

  /** Long enough for any entry written now; refreshed by every write. */
  #ttlMs(): number {
    return (this.#options.ledgerDays + 1) * DAY_MS;
  }

  async #sheetNumber(sheetId: string): Promise<number> {
    const known = this.#numbers.get(sheetId);
    if (known !== undefined) return known;
    const number = await this.#redis.oiLedgerSheet(this.#sheets, sheetId, this.#ttlMs());
    this.#numbers.set(sheetId, number);
    this.#ids.set(number, sheetId);
    return number;
  }

  async #sheetId(number: number): Promise<string> {
    const known = this.#ids.get(number);
    if (known !== undefined) return known;
    const sheetId = await this.#redis.hget(this.#sheets, `n:${number}`);
    // Only an entry whose sheet numbers were lost (removed by hand) names none.
    if (sheetId === null) return `#${number}`;
    this.#ids.set(number, sheetId);
    this.#numbers.set(sheetId, number);
    return sheetId;
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
  if (row.reference !== undefined) return referenceKey(scope, row.reference);
  const canonical = JSON.stringify([
    Object.keys(row.order)
      .sort()
      .map((k) => [k, row.order[k as keyof OrderPayload]]),
    row.files,
  ]);
  return `${scope}|fp|${createHash('sha256').update(canonical).digest('hex')}`;
}

/** The ledger key of a row with a reference (as ledgerKey makes it): all `ledger rebuild` needs. */
export function referenceKey(scope: string, reference: string): string {
  return `${scope}|ref|${reference}`;
}
