/**
 * The events told to the people who wait for an import (docs/design.md §2 "Notifications"), their
 * stable ids, and the one JSON body every channel tells them from. Never the token: a connection
 * is named by its name, its id (a hash) and its API's host.
 */
import { createHash } from 'node:crypto';

import type { ConnectionInfo } from '../connections/connection.js';

/**
 * What a report's summary.json holds, as far as a notification reads it (report/report.ts's
 * `Summary` is one); the whole summary is sent as it is.
 */
export interface SheetSummary {
  sheet: string;
  sheetId: string;
  total: number;
  created: number;
  invalid: number;
  failed: number;
  needsReview: number;
  duplicate: number;
  warnings: string[];
  reportDir: string;
  duplicateOf?: string;
  error?: string;
}

/** What an order was, or is, in status.csv's words: compared to tell whether it changed. */
export interface OrderSnapshot {
  order_status: string;
  cancel_reason: string;
  inspections: Array<{ product_id: string; inspection_date: string; inspector_name: string }>;
}

/** An order whose status, dates or inspectors changed since the previous status run. */
export interface ChangedOrder {
  row: number;
  reference: string;
  order_id: number;
  /** Where its visits are: `Kerkstraat 12, 9000 Gent` (status.csv's `address`); may be empty. */
  address: string;
  /** null: no line of it in the previous status.csv (compared with a new order's state). */
  before: OrderSnapshot | null;
  after: OrderSnapshot;
}

export type NotifyEvent =
  /** Its report is written. */
  | { kind: 'sheet.done'; summary: SheetSummary }
  /** It could not be read at all and was moved to failed/ (with error.txt). */
  | {
      kind: 'sheet.unreadable';
      /** The sheet's name (its file name), where it was dropped. */
      sheet: string;
      sheetId?: string;
      reason: string;
      /** The folder under failed/ it was moved to. */
      movedTo: string;
    }
  /**
   * A status run found changes since the previous status.csv (`since`: when that was checked;
   * empty when there was none).
   */
  | {
      kind: 'orders.changed';
      sheetId: string;
      sheet?: string;
      since: string;
      orders: ChangedOrder[];
    };

export type EventKind = NotifyEvent['kind'];
export const EVENT_KINDS = ['sheet.done', 'sheet.unreadable', 'orders.changed'] as const;

/**
 * The event's id: derived from what it is about, so the same event told again (a report job run
 * twice, a status job retried) has the same id, and a receiver drops the repeat. Changed orders
 * are known by the changes themselves and the status.csv they were found against: two runs that
 * overlap tell one change once, and a retried run that finds more tells the more.
 */
export function eventId(event: NotifyEvent, connectionId: string): string {
  const about =
    event.kind === 'sheet.done'
      ? event.summary.sheetId
      : event.kind === 'sheet.unreadable'
        ? (event.sheetId ?? event.movedTo)
        : `${event.sheetId}|${event.since}|${digest(JSON.stringify(event.orders))}`;
  return idOf(event.kind, connectionId, about);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The id of the event of this kind about this (a sheet's id; a sheet's changes). */
export function idOf(kind: EventKind, connectionId: string, about: string): string {
  const hash = createHash('sha256').update(`${kind}|${connectionId}|${about}`);
  return `${kind.replace('.', '-')}-${hash.digest('hex').slice(0, 24)}`;
}

/** The connection as an event names it: never the token. */
export function connectionNamed(connection: ConnectionInfo): {
  name: string;
  id: string;
  apiHost: string;
  sandbox: boolean;
} {
  const host = URL.canParse(connection.apiBaseUrl)
    ? new URL(connection.apiBaseUrl).host
    : connection.apiBaseUrl;
  return { name: connection.name, id: connection.id, apiHost: host, sandbox: connection.sandbox };
}

/**
 * The body of every channel: `{ event, id, connection, summary | orders }` (JSON). Made once,
 * when the event is queued: the bytes signed and sent are the same on every retry.
 */
export function eventBody(event: NotifyEvent, id: string, connection: ConnectionInfo): string {
  const head = { event: event.kind, id, connection: connectionNamed(connection) };
  switch (event.kind) {
    case 'sheet.done':
      return JSON.stringify({ ...head, summary: event.summary });
    case 'sheet.unreadable':
      return JSON.stringify({
        ...head,
        summary: {
          sheet: event.sheet,
          ...(event.sheetId !== undefined && { sheetId: event.sheetId }),
          error: event.reason,
          movedTo: event.movedTo,
        },
      });
    case 'orders.changed':
      return JSON.stringify({
        ...head,
        sheetId: event.sheetId,
        ...(event.sheet !== undefined && { sheet: event.sheet }),
        orders: event.orders,
      });
  }
}
