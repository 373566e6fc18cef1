/**
 * Where each row's create and uploads stand, across every worker and attempt (docs/design.md §3):
 * one entry per row in its sheet's `creates` hash. `sent|<token>|<sentAt>` is the claim and the
 * intent at once — written before the create leaves, by the one attempt anywhere allowed to send
 * it; `answered|<orderId>|<inspections>|<fileIds>|<resent>|<uploading>` is the order as it came
 * back, then each file's id as it is uploaded. The entries live until the sheet is reported.
 * Beside each, `<row>:waits` counts how often the row's job waited for another row or attempt.
 *
 * The steps a row takes before its create, and the create's answer, are each one script: a row
 * costs Redis a few round trips, not one per fact (row-scripts.ts).
 */
import { randomBytes } from 'node:crypto';

import type { Redis } from 'ioredis';

import type { Keys } from './keys.js';
import type { Ledger, RowRef } from './ledger.js';

// What opening the stores needs of the installation's marker, from here (stores.ts).
export type { Installation } from './installation.js';
export { markerField, markerKept, refuseForgetful } from './redis-marker.js';
import { ANSWER, ANSWER_KEYS, BEGIN, BEGIN_KEYS, CLAIM_CREATE, UNCLAIM } from './row-scripts.js';
import { Refused } from '../errors.js';

/** What is stored of a row's create and uploads. */
export type Progress =
  | { kind: 'none' }
  /** A create sent (or about to be) by the attempt holding `claim`, no answer recorded. */
  | { kind: 'sent'; claim: string; sentAt?: string }
  | ({ kind: 'answered' } & OrderProgress);

export interface OrderProgress {
  orderId: number;
  inspectionIds: number[];
  /** By attachment position, null until uploaded; undefined when an older version kept them. */
  fileIds?: Array<number | null>;
  /** Attachments sent again after an unclear answer. */
  resent?: number[];
  /** The attachment on its way: still set on a resume, it was sent with no answer kept. */
  uploading?: number;
}

/** Where a row stands when its job begins. */
export type Begun =
  | { kind: 'final' }
  | { kind: 'progress'; progress: Progress }
  /** The ledger holds the row's key for another row (or as created): `entry` says how. */
  | { kind: 'ledger'; entry: string }
  /** The create is this attempt's to send now. */
  | { kind: 'claimed' }
  /** Nothing stands in the way; no claim was asked for. */
  | { kind: 'free' };

const numbers = (text: string | undefined): number[] =>
  text === undefined || text === '' ? [] : text.split(',').map(Number);

/** A claim's entry: the attempt's token (never reused) and when its create leaves. */
export function sentEntry(token: string, sentAt: string): string {
  return `sent|${token}|${sentAt}`;
}

export function encodeProgress(order: OrderProgress): string {
  return [
    'answered',
    order.orderId,
    order.inspectionIds.join(','),
    (order.fileIds ?? []).map((id) => (id === null ? '' : String(id))).join(','),
    (order.resent ?? []).join(','),
    order.uploading ?? '',
  ].join('|');
}

/** Reads an entry, in this version's form or an earlier one's (`sent|<token>`, `answered|id|insp`). */
export function decodeProgress(value: string | null): Progress {
  if (value === null || value === '') return { kind: 'none' };
  const parts = value.split('|');
  if (parts[0] === 'sent') {
    const sentAt = parts[2];
    return { kind: 'sent', claim: value, ...(sentAt !== undefined && { sentAt }) };
  }
  const [, orderId = '', inspections, fileIds, resent, uploading] = parts;
  return {
    kind: 'answered',
    orderId: Number(orderId),
    inspectionIds: numbers(inspections),
    ...(fileIds !== undefined && {
      fileIds:
        fileIds === '' ? [] : fileIds.split(',').map((id) => (id === '' ? null : Number(id))),
    }),
    ...(resent !== undefined && { resent: numbers(resent) }),
    ...(uploading !== undefined && uploading !== '' && { uploading: Number(uploading) }),
  };
}

type ScriptedRedis = Redis & {
  oiRowBegin(...args: Array<string | Buffer>): Promise<[string, string?]>;
  oiRowAnswer(...args: Array<string | Buffer>): Promise<unknown>;
  oiRowClaim(
    creates: string,
    installations: string,
    row: string,
    claim: string,
    marker: string,
  ): Promise<string | null>;
  oiRowUnclaim(creates: string, row: string, claim: string): Promise<number>;
};

export class RowProgress {
  readonly #redis: ScriptedRedis;
  /** This store's own mark, so that tokens of two processes never meet. */
  readonly #mark = randomBytes(6).toString('hex');
  #tokens = 0;

  /**
   * `marker`: the field of redis-marker.ts that each claim checks (a create never leaves from a
   * Redis that lost the installation's data); '' checks nothing (a store of a test, or a tool).
   */
  constructor(
    redis: Redis,
    private readonly keys: Keys,
    private readonly ledger: Ledger,
    private readonly marker = '',
  ) {
    if (!('oiRowBegin' in redis)) {
      redis.defineCommand('oiRowBegin', { numberOfKeys: BEGIN_KEYS, lua: BEGIN });
      redis.defineCommand('oiRowAnswer', { numberOfKeys: ANSWER_KEYS, lua: ANSWER });
      redis.defineCommand('oiRowClaim', { numberOfKeys: 2, lua: CLAIM_CREATE });
      redis.defineCommand('oiRowUnclaim', { numberOfKeys: 1, lua: UNCLAIM });
    }
    this.#redis = redis as ScriptedRedis;
  }

  /** A claim's token, never given twice: the attempt, this store's mark and a count. */
  token(attempt: number): string {
    this.#tokens += 1;
    return `${attempt}.${this.#mark}${this.#tokens.toString(36)}`;
  }

  /**
   * In one step: is the row final; what is stored of it; else its ledger `key` claimed (when it
   * has one) and its create claimed (`claim`, an entry of `sentEntry`) when asked for. Throws
   * Refused ('redis.forgot') when Redis lost the installation's data.
   */
  async begin(
    me: RowRef,
    asked: { key: string | null; claim?: string | undefined },
  ): Promise<Begun> {
    const [kind, value] = await this.ledger.claiming(asked.key, me, (ledger) =>
      this.#redis.oiRowBegin(
        ...ledger.keys,
        this.keys.final(me.sheetId),
        this.keys.sheet(me.sheetId),
        this.keys.creates(me.sheetId),
        this.keys.installations,
        ...ledger.args,
        String(me.row),
        asked.claim ?? '',
        this.marker,
      ),
    );
    if (kind === 'forgot') throw forgot();
    if (kind === 'progress') return { kind, progress: decodeProgress(value ?? null) };
    if (kind === 'ledger') return { kind, entry: value ?? '' };
    if (kind === 'final' || kind === 'claimed' || kind === 'free') return { kind };
    throw new Error(`unexpected answer of a row's first step: ${kind}`);
  }

  /** Claims the create (`claim`, from `sentEntry`); what holds the row instead, if anything. */
  async claim(me: RowRef, claim: string): Promise<Progress | undefined> {
    const held = await this.#redis.oiRowClaim(
      this.keys.creates(me.sheetId),
      this.keys.installations,
      String(me.row),
      claim,
      this.marker,
    );
    if (held === 'forgot') throw forgot();
    return held === null ? undefined : decodeProgress(held);
  }

  /** The create's answer, and the ledger's entry for the row's `key` (if any), in one step. */
  async answered(me: RowRef, order: OrderProgress, key: string | null): Promise<void> {
    await this.ledger.creating(key, me, order.orderId, (ledger) =>
      this.#redis.oiRowAnswer(
        ...ledger.keys,
        this.keys.creates(me.sheetId),
        ...ledger.args,
        String(me.row),
        encodeProgress(order),
      ),
    );
  }

  /** Records the uploads' progress on an order. */
  async save(me: RowRef, order: OrderProgress): Promise<void> {
    await this.#redis.hset(this.keys.creates(me.sheetId), String(me.row), encodeProgress(order));
  }

  async read(me: RowRef): Promise<Progress> {
    return decodeProgress(await this.#redis.hget(this.keys.creates(me.sheetId), String(me.row)));
  }

  /**
   * Counts one more wait of the row's job for another row or attempt, and returns how many it
   * has waited in all. Kept beside the row's progress (its own field of the same hash, gone with
   * it when the sheet is reported), so that the job's data stays what it was queued with.
   */
  async countWait(me: RowRef): Promise<number> {
    return this.#redis.hincrby(this.keys.creates(me.sheetId), `${me.row}:waits`, 1);
  }

  /** Gives the claim back: the create surely did nothing (refused, or never reached the API). */
  async unclaim(me: RowRef, claim: string): Promise<void> {
    await this.#redis.oiRowUnclaim(this.keys.creates(me.sheetId), String(me.row), claim);
  }
}

function forgot(): Refused {
  return new Refused(
    'redis.forgot',
    "Redis no longer has this installation's data: no create is sent until `order-importer ledger rebuild` has run.",
  );
}
