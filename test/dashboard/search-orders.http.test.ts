/**
 * The search shows, beside each row found, its order's status and next inspection date from its
 * sheet's status.csv, so that of three hits for one reference the current one is plain; the date
 * as the page writes dates in the reader's language, never the API's raw `2099-12-01 14:30:00`.
 * Over real HTTP, with report folders and status.csv files as the importer writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { wordsFor } from '../../src/language/words.js';
import { createLogger } from '../../src/logger.js';
import { put } from '../helpers/files.js';
import { reportOf, sheetOf } from '../helpers/reports.js';

const STATUS_HEADER =
  'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at;address;contact_name';
const CHECKED = '2026-11-26T09:15:00.000Z';

let dashboard: RunningDashboard;

beforeAll(async () => {
  // Three sheets that each made an order for REF-1: cancelled, planned, not read back yet.
  const [cancelled, planned, unread] = await Promise.all([reportOf(2), reportOf(2), reportOf(2)]);
  await put(
    cancelled,
    'status.csv',
    `\uFEFF${STATUS_HEADER}\r\n1;REF-1;1001;cancelled;sold;EPC;EPC;2099-11-03 09:00:00;An;${CHECKED};Kerkstraat 1, 9000 Gent;Contact 1\r\n`,
  );
  await put(
    planned,
    'status.csv',
    [
      `\uFEFF${STATUS_HEADER}`,
      `1;REF-1;1001;scheduled;;EPC;EPC;2099-12-04 10:00:00;An;${CHECKED};Kerkstraat 1, 9000 Gent;Contact 1`,
      `1;REF-1;1001;scheduled;;ASB;Asbest;2099-12-01 14:30:00;Jan;${CHECKED};Kerkstraat 1, 9000 Gent;Contact 1`,
      `1;REF-1;1001;scheduled;;GAS;Gas;2020-01-01 08:00:00;Jan;${CHECKED};Kerkstraat 1, 9000 Gent;Contact 1`,
      // An older status.csv's line, without address and contact: read all the same.
      `2;REF-2;1002;to schedule;;EPC;EPC;;;${CHECKED};;`,
      '',
    ].join('\r\n'),
  );
  const sheets = [
    sheetOf(cancelled, 2, 'old'),
    sheetOf(planned, 2, 'current'),
    sheetOf(unread, 2, 'unread'),
  ];
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve(sheets),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(() => dashboard.close());

/** Each hit of the search page: its sheet, its order's status and its next inspection. */
async function hits(query: string, lang: string, row = 1): Promise<Map<string, [string, string]>> {
  const answer = await fetch(`${dashboard.url}/search?q=${query}&lang=${lang}`);
  expect(answer.status).toBe(200);
  const html = await answer.text();
  expect(html).not.toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  const found = new Map<string, [string, string]>();
  const lines = new RegExp(`<tr data-sheet-id="[^"]*" data-row="${row}">.*?</tr>`, 'g');
  for (const [line] of html.matchAll(lines)) {
    const sheet = /data-sheet-id="([^"]*)"/.exec(line)?.[1] ?? '';
    const text = (cls: string) =>
      (new RegExp(`<td class="[^"]*${cls}[^"]*">(.*?)</td>`).exec(line)?.[1] ?? '')
        .replace(/<[^>]+>/g, '')
        .trim();
    found.set(sheet, [text('hit-order-status'), text('hit-next')]);
  }
  return found;
}

describe('a search hit', () => {
  it.each(['en', 'nl', 'fr'] as const)(
    'in %s: shows its order status and its next inspection, dated as the page dates',
    async (lang) => {
      const words = wordsFor(lang);
      const found = await hits('REF-1', lang);
      // The API's statuses as it says them; a cancelled order has no inspection ahead.
      expect(found.get('old')).toEqual(['cancelled', '']);
      expect(found.get('current')).toEqual(['scheduled', words.wallClock('2099-12-01 14:30:00')]);
      // Not read back yet: no status to show, and said so.
      expect(found.get('unread')).toEqual([words.t('dashboard.search.notRead'), '']);
      const second = await hits('REF-2', lang, 2);
      expect(second.get('current')).toEqual([
        'to schedule',
        words.t('dashboard.orders.notPlanned'),
      ]);
    },
  );
});
