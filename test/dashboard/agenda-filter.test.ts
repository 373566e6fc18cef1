import { describe, expect, it } from 'vitest';

import {
  brusselsDay,
  parseAgendaQuery,
  periodOf,
  plusDays,
  selectAgenda,
} from '../../src/dashboard/agenda-filter.js';
import { SEES_ALL, type Viewer } from '../../src/dashboard/viewer.js';
import type { AgendaEntry } from '../../src/store/agenda.js';

const entry = (over: Partial<AgendaEntry> = {}): AgendaEntry => ({
  uid: `u-${Math.random()}`,
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
  contact: 'An',
  phone: '1',
  sequence: 0,
  checkedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

const now = new Date('2026-11-27T23:30:00Z'); // already the 28th in Brussels

describe('the day in Brussels', () => {
  it('is the wall-clock date there, not UTC', () => {
    expect(brusselsDay(now)).toBe('2026-11-28');
    expect(brusselsDay(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(brusselsDay(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });

  it('adds days over month and year ends', () => {
    expect(plusDays('2026-12-15', 30)).toBe('2027-01-14');
    expect(plusDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});

describe('the agenda query', () => {
  it('takes office, period and status, each optional', () => {
    expect(
      parseAgendaQuery({ office: 'gent', from: '2026-12-01', to: '2026-12-31', status: 'done' }),
    ).toEqual({
      office: 'gent',
      from: '2026-12-01',
      to: '2026-12-31',
      status: 'done',
    });
    expect(parseAgendaQuery({})).toEqual({});
    expect(parseAgendaQuery({ office: '', status: '' })).toEqual({});
  });

  it('refuses a date that is not one', () => {
    expect(parseAgendaQuery({ from: '2026-13-01' })).toBeUndefined();
    expect(parseAgendaQuery({ to: 'tomorrow' })).toBeUndefined();
    expect(parseAgendaQuery({ from: ['2026-12-01', '2026-12-02'] })).toBeUndefined();
    expect(parseAgendaQuery({ status: 'x'.repeat(300) })).toBeUndefined();
  });

  it('has a period of today to 30 days on unless told', () => {
    expect(periodOf({}, now)).toEqual({ from: '2026-11-28', to: '2026-12-28' });
    expect(periodOf({ from: '2026-12-10' }, now)).toEqual({ from: '2026-12-10', to: '2027-01-09' });
    expect(periodOf({ to: '2026-12-01' }, now)).toEqual({ from: '2026-11-28', to: '2026-12-01' });
  });

  it('swaps a period given backwards', () => {
    expect(periodOf({ from: '2026-12-10', to: '2026-12-01' }, now)).toEqual({
      from: '2026-12-01',
      to: '2026-12-10',
    });
  });
});

describe('the agenda selected', () => {
  it('keeps the period, sorted by date, both ends included', () => {
    const list = selectAgenda(
      [
        entry({ uid: 'b', date: '2026-12-28 16:00:00' }),
        entry({ uid: 'a', date: '2026-11-28 08:00:00' }),
        entry({ uid: 'out', date: '2026-12-29 08:00:00' }),
        entry({ uid: 'past', date: '2026-11-27 08:00:00' }),
      ],
      {},
      SEES_ALL,
      now,
    );
    expect(list.planned.map((e) => e.uid)).toEqual(['a', 'b']);
  });

  it('lists the inspections not planned apart, whatever the period', () => {
    const list = selectAgenda(
      [entry({ uid: 'n', date: '' }), entry({ uid: 'p' })],
      {},
      SEES_ALL,
      now,
    );
    expect(list.unplanned.map((e) => e.uid)).toEqual(['n']);
    expect(list.planned.map((e) => e.uid)).toEqual(['p']);
  });

  it('filters by office and status', () => {
    const all = [
      entry({ uid: 'g', office: 'gent' }),
      entry({ uid: 'b', office: 'brugge' }),
      entry({ uid: 'd', office: 'gent', status: 'done' }),
    ];
    expect(selectAgenda(all, { office: 'gent' }, SEES_ALL, now).planned.map((e) => e.uid)).toEqual([
      'd',
      'g',
    ]);
    expect(selectAgenda(all, { status: 'done' }, SEES_ALL, now).planned.map((e) => e.uid)).toEqual([
      'd',
    ]);
  });

  it('shows only the offices the viewer sees, and lists only those to filter by', () => {
    const gentOnly: Viewer = { all: false, sees: (o) => o === 'gent' };
    const list = selectAgenda(
      [entry({ uid: 'g', office: 'gent' }), entry({ uid: 'b', office: 'brugge', date: '' })],
      {},
      gentOnly,
      now,
    );
    expect(list.planned.map((e) => e.uid)).toEqual(['g']);
    expect(list.unplanned).toEqual([]);
    expect(list.offices).toEqual(['gent']);
    expect(
      selectAgenda([entry({ office: 'brugge' })], { office: 'brugge' }, gentOnly, now).planned,
    ).toEqual([]);
  });

  it('keeps a cancelled inspection for 7 days after it was first seen cancelled, then drops it', () => {
    const list = selectAgenda(
      [
        entry({ uid: 'new', status: 'cancelled', cancelledAt: '2026-11-21T00:00:00Z' }),
        entry({ uid: 'old', status: 'cancelled', cancelledAt: '2026-11-20T23:00:00Z' }),
        entry({
          uid: 'unplanned-old',
          date: '',
          status: 'cancelled',
          cancelledAt: '2026-11-01T00:00:00Z',
        }),
      ],
      {},
      SEES_ALL,
      now,
    );
    expect(list.planned.map((e) => e.uid)).toEqual(['new']);
    expect(list.unplanned).toEqual([]);
  });

  it('names the statuses found, for the status filter', () => {
    const list = selectAgenda(
      [entry({ status: 'scheduled' }), entry({ status: 'done' }), entry({ status: 'done' })],
      {},
      SEES_ALL,
      now,
    );
    expect(list.statuses).toEqual(['done', 'scheduled']);
  });
});
