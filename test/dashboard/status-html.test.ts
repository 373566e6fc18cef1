import { describe, expect, it } from 'vitest';

import type { StatusSummary } from '../../src/dashboard/order-status.js';
import { Refused } from '../../src/errors.js';
import { orderCell, ordersSummary, statusCounts } from '../../src/dashboard/status-html.js';
import { wordsFor } from '../../src/language/words.js';

const words = wordsFor('en');

function summary(overrides: Partial<StatusSummary> = {}): StatusSummary {
  return {
    orders: 15,
    byStatus: [
      { status: 'scheduled', orders: 12 },
      { status: 'cancelled', orders: 2 },
      { status: 'not found', orders: 1 },
    ],
    others: { orders: 0, statuses: 0 },
    upcoming: [],
    moreUpcoming: false,
    inRowOrder: true,
    ...overrides,
  };
}

describe("a sheet's orders as HTML", () => {
  it('counts them per status, says the next inspection and when they were checked', () => {
    const html = ordersSummary(words, {
      summary: summary({ checkedAt: '2026-11-26T09:15:00.000Z' }),
      next: '2026-12-01 14:30:00',
    });
    expect(html).toBe(
      '<div class="orders">12 scheduled · 2 cancelled · 1 not found</div>' +
        '<div class="note">next inspection <span class="next-inspection">1 Dec 2026, 14:30</span></div>' +
        '<div class="note">checked <time datetime="2026-11-26T09:15:00.000Z" data-show="date-time">26 Nov 2026, 10:15</time></div>',
    );
  });

  it('says the status the importer adds in the page’s language, and the API’s as it gave them', () => {
    const nl = wordsFor('nl');
    expect(statusCounts(nl, summary())).toBe('12 scheduled · 2 cancelled · 1 niet gevonden');
    const cell = orderCell(nl, {
      status: 'not found',
      cancelReason: '',
      inspections: [],
      moreInspections: 0,
    } as unknown as Parameters<typeof orderCell>[1]);
    expect(cell).toContain('data-order-status="not found">niet gevonden</span>');
  });

  it('says nothing for a sheet without status.csv, and so when none is ahead or there are none', () => {
    expect(ordersSummary(words, undefined)).toBe('');
    expect(ordersSummary(words, { summary: summary() })).toContain('no inspection ahead');
    expect(statusCounts(words, summary({ orders: 0, byStatus: [] }))).toBe('no orders');
    expect(
      statusCounts(
        words,
        summary({ byStatus: [{ status: '', orders: 3 }], others: { orders: 4, statuses: 2 } }),
      ),
    ).toBe('3 (no status) · 4 of 2 other statuses');
  });

  it('escapes what the file says, wherever it is shown', () => {
    const hostile = '<img src=x onerror=alert(1)>"\u202E';
    const html = ordersSummary(words, {
      summary: summary({ byStatus: [{ status: hostile, orders: 1 }], checkedAt: hostile }),
      next: hostile,
    });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&lt;U+202E&gt;');
    const cell = orderCell(words, {
      row: 1,
      orderId: '1',
      status: hostile,
      cancelReason: hostile,
      inspections: [{ productId: hostile, productName: '', date: hostile, inspector: hostile }],
      moreInspections: 0,
    });
    expect(cell).not.toContain('<img');
    expect(cell).toContain(
      'data-order-status="&lt;img src=x onerror=alert(1)&gt;&quot;&lt;U+202E&gt;"',
    );
  });

  it('says why a status.csv could not be read, escaped', () => {
    expect(
      ordersSummary(words, new Refused('status-csv.unreadable', 'its header lacks <b>row</b>')),
    ).toBe(
      '<span class="bad status-problem">status.csv could not be read: its header lacks &lt;b&gt;row&lt;/b&gt;</span>',
    );
  });

  it('shows an order without inspections by its status alone, and the rest of many', () => {
    const order = {
      row: 1,
      orderId: '1',
      status: 'to schedule',
      cancelReason: '',
      inspections: [],
      moreInspections: 0,
    };
    expect(orderCell(words, order)).toBe(
      '<td class="text order-status" data-label="Order status"><span class="order-state" data-order-status="to schedule">to schedule</span></td>',
    );
    expect(orderCell(words, { ...order, moreInspections: 3 })).toContain(
      '<li class="note">and 3 more</li>',
    );
    expect(orderCell(words, undefined)).toBe(
      '<td class="text order-status" data-label="Order status"></td>',
    );
  });
});
