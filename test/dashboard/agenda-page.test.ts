import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { selectAgenda } from '../../src/dashboard/agenda-filter.js';
import { agendaCsv, agendaIcs } from '../../src/dashboard/agenda-files.js';
import { agendaPage, dayText, queryString } from '../../src/dashboard/agenda-page.js';
import { sameKey } from '../../src/dashboard/agenda-downloads.js';
import { SEES_ALL } from '../../src/dashboard/viewer.js';
import { wordsFor } from '../../src/language/words.js';
import type { AgendaEntry } from '../../src/store/agenda.js';

const entry = (over: Partial<AgendaEntry> = {}): AgendaEntry => ({
  uid: '100001-EPC-1',
  office: 'gent',
  sheetId: 's1',
  sheetName: 'orders',
  row: 2,
  reference: 'R-1',
  orderId: 100001,
  productId: 'EPC',
  productName: 'EPC',
  date: '2026-12-01 11:00:00',
  inspector: 'Jan Peeters',
  status: 'scheduled',
  address: 'Kerkstraat 1, 9000 Gent',
  contact: 'An',
  phone: '+32 9 000 00 00',
  sequence: 0,
  checkedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});
const now = new Date('2026-11-27T10:00:00Z');
const en = wordsFor('en');

function page(entries: AgendaEntry[], feeds: Array<{ office: string; url: string }> = []) {
  const list = selectAgenda(entries, {}, SEES_ALL, now);
  return agendaPage(en, { list, query: {}, bad: false, statusDays: 90, feeds }).main;
}

describe('the agenda page', () => {
  it('writes a day with its weekday in the language, and the filters as a query', () => {
    expect(dayText(en, '2026-12-01 11:00:00')).toBe('Tue, 1 Dec 2026');
    expect(dayText(wordsFor('nl'), '2026-12-01 11:00:00')).toMatch(/^di 1 dec 2026$/);
    expect(queryString({ office: 'gent', status: 'to schedule' })).toBe(
      '?office=gent&status=to+schedule',
    );
    expect(queryString({})).toBe('');
  });

  it("shows a user's text as text, never as markup", () => {
    const html = page([entry({ contact: '<script>x</script>', address: '<b>a</b>' })]);
    expect(html).not.toContain('<script>x');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<b>a</b>');
  });

  it('strikes a cancelled inspection through, its status left readable', () => {
    const html = page([entry({ status: 'cancelled', cancelledAt: '2026-11-26T00:00:00Z' })]);
    expect(html).toContain('class="cancelled"');
    expect(html).toContain('<del>Kerkstraat 1, 9000 Gent</del>');
    expect(html).toContain('<span class="order-status">cancelled</span>');
  });

  it('counts the inspections not planned and lists them apart', () => {
    const html = page([entry({ uid: 'a', date: '' }), entry({ uid: 'b', date: '' })]);
    expect(html).toContain('2 inspections not planned yet');
    expect(html).toContain('id="unplanned"');
  });

  it("shows the feeds' addresses, and none without any", () => {
    expect(page([entry()])).not.toContain('id="feeds"');
    const html = page([entry()], [{ office: 'gent', url: 'http://x/agenda/gent.ics?key=abc' }]);
    expect(html).toContain('http://x/agenda/gent.ics?key=abc');
  });

  it('links the downloads with the same filters', () => {
    const list = selectAgenda([entry()], { office: 'gent' }, SEES_ALL, now);
    const html = agendaPage(en, {
      list,
      query: { office: 'gent' },
      bad: false,
      statusDays: 90,
      feeds: [],
    }).main;
    expect(html).toContain('href="/agenda.csv?office=gent"');
    expect(html).toContain('href="/agenda.ics?office=gent"');
  });
});

describe('the agenda as CSV', () => {
  it('has a BOM, semicolons and every cell a spreadsheet would run guarded', () => {
    const text = agendaCsv([entry({ contact: '=HYPERLINK("x")', reference: '@SUM(1)' })]);
    expect(text.startsWith('\uFEFFdate;time;office;')).toBe(true);
    const [line] = parse<Record<string, string>>(text, {
      bom: true,
      columns: true,
      delimiter: ';',
    });
    expect(line?.contact_name).toBe('\'=HYPERLINK("x")');
    expect(line?.reference).toBe("'@SUM(1)");
    expect(line?.date).toBe('2026-12-01');
    expect(line?.time).toBe('11:00');
  });
});

describe('the agenda as a calendar in a language', () => {
  it("describes each event in the reader's words", () => {
    const text = agendaIcs(wordsFor('nl'), [entry()], { minutes: 60, now, name: 'x' });
    // Unfolded, as a reader does.
    expect(text.replace(/\r\n /g, '')).toContain(
      'DESCRIPTION:Contactpersoon: An\\nTelefoon: +32 9 000 00 00\\nKeurder: Jan Peeters',
    );
  });
});

describe('a feed key compared', () => {
  it('matches only the same key, and never an empty one', () => {
    expect(sameKey('abc', 'abc')).toBe(true);
    expect(sameKey('abd', 'abc')).toBe(false);
    expect(sameKey('abcd', 'abc')).toBe(false);
    expect(sameKey('', '')).toBe(false);
  });
});
