/**
 * The one table from HTTP statuses and socket error codes to what a failure means (docs/design.md §3).
 * Pure, and tested case by case.
 */
import type { ErrorKind } from './errors.js';

const STATUS_KINDS: ReadonlyMap<number, ErrorKind> = new Map([
  [400, 'permanent'],
  [401, 'auth'],
  [403, 'auth'],
  [404, 'permanent'],
  [405, 'config'],
  [409, 'permanent'],
  [410, 'permanent'],
  [413, 'permanent'],
  [415, 'permanent'],
  [422, 'permanent'],
  [408, 'ambiguous'],
  [429, 'retryable'],
  [500, 'ambiguous'],
  [502, 'retryable'],
  [503, 'retryable'],
  [504, 'ambiguous'],
]);

/** What an HTTP error status means. */
export function classifyStatus(status: number): ErrorKind {
  const known = STATUS_KINDS.get(status);
  if (known) return known;
  if (status >= 300 && status < 400) return 'config';
  if (status >= 400 && status < 500) return 'permanent';
  return 'ambiguous';
}

/** Failures that happen before a byte of the request reaches the server. */
const BEFORE_SENDING = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * What a request that got no answer means. Unknown codes count as ambiguous: assuming that
 * nothing happened is the assumption that can create an order twice.
 */
export function classifyNetwork(code: string | undefined): ErrorKind {
  return code !== undefined && BEFORE_SENDING.has(code) ? 'retryable' : 'ambiguous';
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(
  header: string | string[] | undefined,
  now: number,
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
