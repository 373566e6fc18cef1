/** What `status` says of each sheet, in Dutch, French and English: counts, plurals, status words. */
import { describe, expect, it } from 'vitest';

import { sheetLine, unreadableLines } from '../../src/cli/commands/status-lines.js';
import { UserError } from '../../src/errors.js';
import { wordsFor } from '../../src/language/words.js';
import type { SheetStatus } from '../../src/status/status.js';

const nl = wordsFor('nl');
const fr = wordsFor('fr');
const en = wordsFor('en');

const sheet = { dir: '/x/reports/orders-S1', sheetId: 'S1', finishedAt: '2026-11-26T10:00:00Z' };
const status = (over: Partial<SheetStatus>): SheetStatus => ({
  sheetId: 'S1',
  reportDir: sheet.dir,
  orders: 1234,
  byStatus: { 'to schedule': 1232, 'not found': 2 },
  changed: 1,
  changedOrders: [],
  notifications: [],
  unreadable: 0,
  unreadableOrders: [],
  skipped: false,
  ...over,
});
const read = (over: Partial<SheetStatus> = {}) => ({ sheet, status: status(over) });

describe("a sheet's line", () => {
  it('in Dutch: the numbers as Flemings write them, the API’s status verbatim, the importer’s own in Dutch', () => {
    expect(sheetLine(read({ unreadable: 2 }), '/x', nl)).toBe(
      'S1 (reports/orders-S1): 1.234 opdrachten; 2 niet gevonden, 1.232 to schedule; 1 gewijzigd; 2 nu niet leesbaar (hun vorige regels blijven staan).',
    );
  });

  it('in French, its words agreeing with their number', () => {
    expect(sheetLine(read({ changed: 2 }), '/x', fr)).toBe(
      'S1 (reports/orders-S1)\u202f: 1\u202f234 commandes\u202f; 2 introuvable, 1\u202f232 to schedule\u202f; 2 modifiées.',
    );
  });

  it('in English as before', () => {
    expect(
      sheetLine(read({ orders: 3, byStatus: { 'to schedule': 3 }, changed: 0 }), '/x', en),
    ).toBe('S1 (reports/orders-S1): 3 orders; 3 to schedule; 0 changed.');
    expect(sheetLine(read({ orders: 2, byStatus: { done: 2 }, skipped: true }), '/x', en)).toBe(
      'S1 (reports/orders-S1): 2 orders, all final (2 done): not read again.',
    );
  });

  it('all final, in Dutch and French', () => {
    const done = read({ orders: 1, byStatus: { done: 1 }, skipped: true });
    expect(sheetLine(done, '/x', nl)).toBe(
      'S1 (reports/orders-S1): 1 opdracht met een definitieve status (1 done): niet opnieuw opgevraagd.',
    );
    expect(sheetLine(done, '/x', fr)).toBe(
      'S1 (reports/orders-S1)\u202f: 1 commande, dans un état définitif (1 done)\u202f: pas relue.',
    );
  });

  it('a sheet of a connection not configured here, in each language', () => {
    const other = {
      sheet: { ...sheet, connectionId: 'abc', connectionName: 'brugge' },
      error: 'x',
    };
    expect(sheetLine(other, '/x', en)).toBe(
      'S1 (reports/orders-S1): imported through connection "brugge" (abc), which is not configured here: not read (its orders are read only with that connection\'s token).',
    );
    expect(sheetLine(other, '/x', nl)).toContain(
      'via verbinding “brugge” (abc), die hier niet ingesteld is',
    );
    expect(sheetLine({ sheet, error: 'x' }, '/x', fr)).toContain(
      'importée via la connexion (non indiquée dans son summary.json)',
    );
  });

  it('a report folder that cannot be used: its error said in the language when it carries values', () => {
    const problem = new UserError('report-folder.unusable', 'English only.');
    expect(sheetLine({ sheet, error: problem.message, problem }, '/x', nl)).toBe(
      'S1 (reports/orders-S1): English only.',
    );
  });
});

describe('the orders not read', () => {
  it('by row, and how many more, in Dutch and French', () => {
    const unreadableOrders = Array.from({ length: 12 }, (_, i) => ({
      row: i + 1,
      order_id: 100 + i,
      reason: 'HTTP 503',
    }));
    const outcome = read({ unreadable: 12, unreadableOrders });
    expect(unreadableLines(outcome, nl)[0]).toBe('  rij 1, opdracht 100: HTTP 503');
    expect(unreadableLines(outcome, nl).at(-1)).toBe('  … en nog 2');
    expect(unreadableLines(outcome, fr)[0]).toBe('  ligne 1, commande 100\u202f: HTTP 503');
    expect(unreadableLines(outcome, en).at(-1)).toBe('  … and 2 more');
  });
});
