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
import {
  CLAIM,
  LEDGER_KEYS,
  LOOKUP,
  RELEASE,
  SHEET_NUMBER,
  SPLIT,
  WRITE,
} from './ledger-scripts.js';
import { LEDGER_DAYS, LEDGER_SPLITS_AT_ONCE, LEDGER_STALE_TRIES } from '../policy.js';

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
 * The ledger's part in a script that does more (row-progress.ts): KEYS its shape, sheet numbers,
 * the field's shard and the two a split would rewrite, named by the shape last seen; ARGV today,
 * LEDGER_DAYS, the time to live, the field, the entry, the owner's marker.
 */
export interface LedgerArgs {
  keys: [shape: string, sheets: string, shard: string, splitFrom: string, splitTo: string];
  args: [
    today: string,
    days: string,
    ttlMs: string,
    field: Buffer | '',
    entry: string,
    marker: string,
  ];
}

/** The level and next shard to split of a ledger's linear hashing (ledger-scripts.ts). */
interface Shape {
  level: number;
  next: number;
}

/** The shard a field is in under `shape`, as the scripts find it (its hash's first 4 bytes). */
export function shardOf(field: Buffer, shape: Shape): number {
  const hash = field.readUInt32BE(0);
  const shard = hash % 2 ** shape.level;
  return shard < shape.next ? hash % 2 ** (shape.level + 1) : shard;
}

/**
 * The shards the next LEDGER_SPLITS_AT_ONCE splits from `shape` rewrite, two by two: shard `next`
 * into itself and `next + 2^level`, the level rising once every shard of it was split.
 */
export function splitPairs(meta: string, shape: Shape): string[] {
  const keys: string[] = [];
  let { level, next } = shape;
  for (let i = 0; i < LEDGER_SPLITS_AT_ONCE; i++) {
    keys.push(`${meta}:${next}`, `${meta}:${next + 2 ** level}`);
    next += 1;
    if (next === 2 ** level) [level, next] = [level + 1, 0];
  }
  return keys;
}

/**
 * What a script said of the ledger's shape besides its answer (ledger-scripts.ts): that the
 * field's shard was named by a shape changed since (`stale`: nothing done), or that a split is
 * due whose shards it was not given (`split`: its answer is the fourth item).
 */
function shapeSaid(answer: unknown): { said: 'stale' | 'split'; shape: Shape } | undefined {
  if (!Array.isArray(answer)) return undefined;
  const [said, level, next] = answer as unknown[];
  if (said !== 'stale' && said !== 'split') return undefined;
  return { said, shape: { level: Number(level), next: Number(next) } };
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

type LedgerCall = (...keysAndArgs: Array<string | Buffer>) => Promise<unknown>;

type ScriptedRedis = Redis & {
  oiLedgerClaim: LedgerCall;
  oiLedgerWrite: LedgerCall;
  oiLedgerRelease: LedgerCall;
  oiLedgerLookup: LedgerCall;
  oiLedgerSplit(
    numberOfKeys: number,
    ...keysAndArgs: Array<string | Buffer>
  ): Promise<[number, number, number]>;
  oiLedgerSheet(sheets: string, sheetId: string, ttlMs: number): Promise<number>;
};

function defineScripts(redis: Redis): ScriptedRedis {
  if (!('oiLedgerClaim' in redis)) {
    redis.defineCommand('oiLedgerClaim', { numberOfKeys: LEDGER_KEYS, lua: CLAIM });
    redis.defineCommand('oiLedgerWrite', { numberOfKeys: LEDGER_KEYS, lua: WRITE });
    redis.defineCommand('oiLedgerRelease', { numberOfKeys: LEDGER_KEYS, lua: RELEASE });
    redis.defineCommand('oiLedgerLookup', { numberOfKeys: LEDGER_KEYS, lua: LOOKUP });
    // Its number of keys is its first argument: as many pairs as splits asked for.
    redis.defineCommand('oiLedgerSplit', { lua: SPLIT });
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
  readonly #meta: string;
  readonly #sheets: string;
  readonly #options: Required<LedgerOptions>;
  /** Sheet ids by their number and back: a sheet's number never changes while it is remembered. */
  readonly #numbers = new Map<string, number>();
  readonly #ids = new Map<number, string>();
  /** The shape last seen: the shards are named by it, and by the one a script finds if it moved. */
  #shape: Shape = { level: 0, next: 0 };
  /** The splits steps owed, being made: one at a time. */
  #splitting: Promise<void> | undefined;

  constructor(redis: Redis, keys: Keys, options: LedgerOptions) {
    this.#redis = defineScripts(redis);
    this.#meta = keys.ledgerOf(options.connectionId);
    this.#sheets = `${this.#meta}:sheets`;
    this.#options = { ...options, ledgerDays: options.ledgerDays ?? LEDGER_DAYS };
  }

  async claim(key: string, me: RowRef): Promise<Claim> {
    const sheet = await this.#sheetNumber(me.sheetId);
    const pending = encode({ state: 'pending', sheet, row: me.row }, this.#today());
    const found = await this.#call(this.#redis.oiLedgerClaim, key, pending);
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
   * A step of a larger script (store/row-progress.ts) that claims `key` for `me` (none: touches
   * nothing of the ledger): run with the ledger's keys and the arguments of ledger-scripts.ts, the
   * pending entry and its owner's marker among them; again when the shards moved meanwhile.
   */
  async claiming<T>(
    key: string | null,
    me: RowRef,
    step: (ledger: LedgerArgs) => Promise<T>,
  ): Promise<T> {
    if (key === null) return step(this.#args(null, '', ''));
    const sheet = await this.#sheetNumber(me.sheetId);
    const pending = encode({ state: 'pending', sheet, row: me.row }, this.#today());
    return this.#declared(() => this.#args(key, pending, ownerMarker(sheet, me.row)), step);
  }

  /** The same for writing `me`'s order as created. */
  async creating<T>(
    key: string | null,
    me: RowRef,
    orderId: number,
    step: (ledger: LedgerArgs) => Promise<T>,
  ): Promise<T> {
    if (key === null) return step(this.#args(null, '', ''));
    const sheet = await this.#sheetNumber(me.sheetId);
    const entry = encode({ state: 'created', sheet, row: me.row, orderId }, this.#today());
    return this.#declared(() => this.#args(key, entry, ownerMarker(sheet, me.row)), step);
  }

  /**
   * A script run with the shards named by the shape last seen; again, named by the shape it
   * found, when the field's shard was split since (it then wrote nothing).
   */
  async #declared<T>(args: () => LedgerArgs, step: (ledger: LedgerArgs) => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      const answer = await step(args());
      const said = shapeSaid(answer);
      if (said === undefined) return answer;
      this.#shape = said.shape;
      if (said.said === 'split') {
        await this.#splitOwed();
        return (answer as unknown[])[3] as T;
      }
      if (tries >= LEDGER_STALE_TRIES)
        throw new Error(
          `the duplicates ledger's shards kept moving under ${tries} tries; the row is tried again later`,
        );
    }
  }

  /**
   * The splits due, made one by one with their shards named (SPLIT), while they are due: steps
   * of callers that named others owed them. Shared by the steps that owe one meanwhile.
   */
  #splitOwed(): Promise<void> {
    this.#splitting ??= (async () => {
      // Each split made moves the shape on; a try that made none (another process split first)
      // learns the shape, and only so many of those in a row are made.
      for (let idle = 0; idle < LEDGER_STALE_TRIES;) {
        const before = this.#shape;
        const { args } = this.#args(null, '', '');
        const keys = [this.#meta, this.#sheets, ...splitPairs(this.#meta, before)];
        const [due, level, next] = await this.#redis.oiLedgerSplit(keys.length, ...keys, ...args);
        this.#shape = { level, next };
        if (due === 0) return;
        const moved = level > before.level || (level === before.level && next > before.next);
        idle = moved ? 0 : idle + 1;
      }
    })().finally(() => {
      this.#splitting = undefined;
    });
    return this.#splitting;
  }

  /** The ledger's keys and arguments for `key` (none: no field, nothing of it touched). */
  #args(key: string | null, entry: string, marker: string): LedgerArgs {
    const { level, next } = this.#shape;
    const field = key === null ? '' : fieldOf(key);
    const shard = field === '' ? 0 : shardOf(field, this.#shape);
    const meta = this.#meta;
    return {
      keys: [
        meta,
        this.#sheets,
        `${meta}:${shard}`,
        `${meta}:${next}`,
        `${meta}:${next + 2 ** level}`,
      ],
      args: [
        String(this.#today()),
        String(this.#options.ledgerDays),
        String(this.#ttlMs()),
        field,
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

  /** One of the ledger's own scripts on `key`, with its argument (ARGV[5]) if it takes one. */
  #call(script: LedgerCall, key: string, arg = ''): Promise<unknown> {
    return this.#declared(
      () => this.#args(key, arg, ''),
      ({ keys, args }) => script.call(this.#redis, ...keys, ...args),
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
