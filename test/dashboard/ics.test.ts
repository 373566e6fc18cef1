import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';

import {
  calendarText,
  escapeText,
  eventOf,
  foldLine,
  icsDateTime,
  wallClockPlus,
} from '../../src/dashboard/ics.js';
import type { AgendaEntry } from '../../src/store/agenda.js';

const entry = (over: Partial<AgendaEntry> = {}): AgendaEntry => ({
  uid: '100001-ELEC-1.1-1',
  office: 'gent',
  sheetId: 's1',
  sheetName: 'orders',
  row: 2,
  reference: 'R-1',
  orderId: 100001,
  productId: 'ELEC-1.1',
  productName: 'Elektrische keuring',
  date: '2026-12-01 11:00:00',
  inspector: 'Jan Peeters',
  status: 'scheduled',
  address: 'Kortrijksesteenweg 1, 9000 Gent',
  contact: 'An; Bert',
  phone: '+32 9 000 00 00',
  sequence: 2,
  checkedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

const labels = {
  contact: 'Contact',
  phone: 'Phone',
  inspector: 'Inspector',
  reference: 'Reference',
  order: 'Order',
};

describe('iCalendar text', () => {
  it('escapes backslash, semicolon, comma and newlines', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('drops control characters a calendar cannot hold', () => {
    expect(escapeText('a\u0000b\u0007c\td')).toBe('abc d');
  });

  it('leaves a short line alone', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
  });

  it('folds a long line at 75 octets, continuing with one space', () => {
    const folded = foldLine(`DESCRIPTION:${'x'.repeat(200)}`);
    const parts = folded.split('\r\n');
    expect(parts.length).toBe(3);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(
      `DESCRIPTION:${'x'.repeat(200)}`,
    );
  });

  it('never folds inside a character of several octets', () => {
    const line = `SUMMARY:${'ë'.repeat(100)}`;
    const parts = foldLine(line).split('\r\n');
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
      expect(part).not.toContain('\uFFFD');
    }
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
  });

  it('writes the API wall-clock time as a local date-time', () => {
    expect(icsDateTime('2026-12-01 11:00:00')).toBe('20261201T110000');
    expect(icsDateTime('2026-12-01 11:00')).toBe('20261201T110000');
    expect(icsDateTime('not a date')).toBeUndefined();
  });

  it('adds minutes to a wall-clock time across midnight and month ends', () => {
    expect(wallClockPlus('20261231T233000', 60)).toBe('20270101T003000');
    expect(wallClockPlus('20261201T110000', 90)).toBe('20261201T123000');
  });
});

describe('an inspection as a VEVENT', () => {
  const now = new Date('2026-11-27T18:00:00Z');

  it('has its UID, DTSTART in Brussels time, DTEND after the minutes, SEQUENCE and STATUS', () => {
    const lines = eventOf(entry(), { minutes: 45, now, labels });
    expect(lines).toContain('UID:100001-ELEC-1.1-1@order-importer');
    expect(lines).toContain('DTSTART;TZID=Europe/Brussels:20261201T110000');
    expect(lines).toContain('DTEND;TZID=Europe/Brussels:20261201T114500');
    expect(lines).toContain('DTSTAMP:20261127T180000Z');
    expect(lines).toContain('SEQUENCE:2');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines).toContain('SUMMARY:Elektrische keuring — Kortrijksesteenweg 1\\, 9000 Gent');
    expect(lines).toContain('LOCATION:Kortrijksesteenweg 1\\, 9000 Gent');
  });

  it('is CANCELLED for a cancelled order', () => {
    expect(eventOf(entry({ status: 'cancelled' }), { minutes: 60, now, labels })).toContain(
      'STATUS:CANCELLED',
    );
  });

  it('is none for an inspection not planned yet', () => {
    expect(eventOf(entry({ date: '' }), { minutes: 60, now, labels })).toEqual([]);
  });
});

describe('a calendar', () => {
  it('is read by ical.js: events, UIDs, time zone, sequence, status and description', () => {
    const text = calendarText([entry(), entry({ uid: '100002-ASB-1', status: 'cancelled' })], {
      minutes: 60,
      now: new Date('2026-11-27T18:00:00Z'),
      labels,
      name: 'gent',
    });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const zone = calendar.getFirstSubcomponent('vtimezone');
    expect(zone?.getFirstPropertyValue('tzid')).toBe('Europe/Brussels');
    if (zone !== null) ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid)).toEqual([
      '100001-ELEC-1.1-1@order-importer',
      '100002-ASB-1@order-importer',
    ]);
    const first = events[0];
    expect(first?.component.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(
      'Europe/Brussels',
    );
    expect(first?.startDate.zone.tzid).toBe('Europe/Brussels');
    // 11:00 in Brussels in December is 10:00 UTC (CET).
    expect(first?.startDate.toJSDate().toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(first?.sequence).toBe(2);
    expect(first?.description).toBe(
      'Contact: An; Bert\nPhone: +32 9 000 00 00\nInspector: Jan Peeters\nReference: R-1\nOrder: 100001',
    );
    expect(events[1]?.component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('puts summer dates at UTC+2 through its VTIMEZONE', () => {
    const text = calendarText([entry({ date: '2027-07-01 11:00:00' })], {
      minutes: 60,
      now: new Date('2026-11-27T18:00:00Z'),
      labels,
      name: 'gent',
    });
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const zone = calendar.getFirstSubcomponent('vtimezone');
    if (zone !== null) ICAL.TimezoneService.register(zone);
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') ?? undefined);
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-07-01T09:00:00.000Z');
  });
});
