/**
 * The agenda as iCalendar (RFC 5545), written to the RFC rather than through a library: a
 * generator would still need the zone's VTIMEZONE from yet another package, and what a feed
 * holds is small and fixed. One VEVENT per planned inspection, its UID stable across syncs, its
 * time the API's wall-clock time in Europe/Brussels (with that zone's rules), lines folded at 75
 * octets and text escaped; tests read it back with ical.js, a parser we did not write.
 */
import { TIME_ZONE } from '../language/words.js';
import type { AgendaEntry } from '../store/agenda.js';
import { CANCELLED } from '../store/agenda.js';

export const ZONE = TIME_ZONE;

/** Europe/Brussels since 1996: CET, and CEST from the last Sunday of March to October's. */
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19810329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19961027T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** The words of an event's DESCRIPTION, in the reader's language. */
export interface EventLabels {
  contact: string;
  phone: string;
  inspector: string;
  reference: string;
  order: string;
}

export interface EventOptions {
  /** How long a visit lasts (INSPECTION_MINUTES). */
  minutes: number;
  /** DTSTAMP: when this calendar was written. */
  now: Date;
  labels: EventLabels;
}

/** A TEXT value (RFC 5545 §3.3.11): `\`, `;`, `,` and line breaks escaped, controls dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex -- a content line may hold no control but HTAB
      .replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\n/g, '\\n')
  );
}

/** A content line folded (§3.1): no line longer than 75 octets, never inside a character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // Continuation lines begin with a space, which counts.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** `YYYY-MM-DD HH:MM[:SS]` as a local DATE-TIME (`YYYYMMDDTHHMMSS`); undefined for anything else. */
export function icsDateTime(date: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(date.trim());
  if (m === null) return undefined;
  return `${m[1]}${m[2]}${m[3]}T${m[4]}${m[5]}${m[6] ?? '00'}`;
}

/** A local DATE-TIME `minutes` later on the wall clock. */
export function wallClockPlus(local: string, minutes: number): string {
  const ms = Date.UTC(
    Number(local.slice(0, 4)),
    Number(local.slice(4, 6)) - 1,
    Number(local.slice(6, 8)),
    Number(local.slice(9, 11)),
    Number(local.slice(11, 13)) + minutes,
    Number(local.slice(13, 15)),
  );
  return new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');
}

function utcStamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** An inspection's VEVENT lines (unfolded); none when it is not planned. */
export function eventOf(entry: AgendaEntry, options: EventOptions): string[] {
  const start = icsDateTime(entry.date);
  if (start === undefined) return [];
  const { labels } = options;
  const summary = [entry.productName || entry.productId, entry.address]
    .filter((p) => p !== '')
    .join(' — ');
  const description = [
    [labels.contact, entry.contact],
    [labels.phone, entry.phone],
    [labels.inspector, entry.inspector],
    [labels.reference, entry.reference],
    [labels.order, String(entry.orderId)],
  ]
    .filter(([, value]) => value !== '')
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(entry.uid)}@order-importer`,
    `DTSTAMP:${utcStamp(options.now)}`,
    `DTSTART;TZID=${ZONE}:${start}`,
    `DTEND;TZID=${ZONE}:${wallClockPlus(start, options.minutes)}`,
    `SEQUENCE:${entry.sequence}`,
    `SUMMARY:${escapeText(summary)}`,
    ...(entry.address === '' ? [] : [`LOCATION:${escapeText(entry.address)}`]),
    `DESCRIPTION:${escapeText(description)}`,
    `STATUS:${entry.status === CANCELLED ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
  ];
}

/** A whole calendar: its zone, then one VEVENT per planned inspection; CRLF-ended lines. */
export function calendarText(
  entries: readonly AgendaEntry[],
  options: EventOptions & { name: string },
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//order-importer//agenda//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    `X-WR-TIMEZONE:${ZONE}`,
    ...VTIMEZONE,
    ...entries.flatMap((entry) => eventOf(entry, options)),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
