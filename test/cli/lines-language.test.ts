/** The CLI's own lines in Dutch, French and English: plurals, numbers and the words to use. */
import { describe, expect, it } from 'vitest';

import { doneLine } from '../../src/cli/commands/done-lines.js';
import { planningHint, printSummaries } from '../../src/cli/commands/import-summary.js';
import { ProgressBars } from '../../src/cli/commands/progress-bars.js';
import { leftOverLine } from '../../src/cli/commands/watch-progress.js';
import { wordsFor } from '../../src/language/words.js';
import { persistenceWarning } from '../../src/redis/persistence.js';
import type { Summary } from '../../src/report/report.js';
import type { SheetProgress } from '../../src/store/progress.js';

const nl = wordsFor('nl');
const fr = wordsFor('fr');
const en = wordsFor('en');

const sheet = (over: Partial<SheetProgress>): SheetProgress => ({
  sheetId: 'S1',
  name: 'orders.csv',
  startedAt: '2026-11-26T10:00:00.000Z',
  state: 'done',
  final: 0,
  counts: { created: 0, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
  ...over,
});
const show = (path: string) => path.replace('/data/', '');

describe('a done line', () => {
  const counts = { created: 1234, invalid: 1, failed: 0, 'needs-review': 2, duplicate: 0 };
  const done = sheet({ counts, reportDir: '/data/reports/orders-S1' });

  it('in Dutch, its counts grouped as Flemings write them', () => {
    expect(doneLine(done, show, 'http://x/sheets/S1', nl)).toBe(
      'Klaar: orders.csv (lijst S1): 1.234 aangemaakt, 1 ongeldig, 2 na te kijken. Rapport: reports/orders-S1/ — zie http://x/sheets/S1',
    );
  });

  it('in French, its words agreeing with their number', () => {
    expect(doneLine(done, show, undefined, fr)).toBe(
      'Terminé\u202f: orders.csv (liste S1)\u202f: 1\u202f234 créées, 1 non valable, 2 à vérifier. Rapport\u202f: reports/orders-S1/',
    );
  });

  it('in English as before', () => {
    expect(doneLine(sheet({ counts: { ...counts, created: 4 } }), show, undefined, en)).toBe(
      'Done: orders.csv (sheet S1): 4 created, 1 invalid, 2 needs-review.',
    );
  });
});

describe('what a stop leaves', () => {
  const left = { rows: 1, sheets: 1, uncounted: 2, unreported: 1 };
  it('in three languages, each with its plurals and its "and"', () => {
    expect(leftOverLine(left, en)).toBe(
      '1 row left for the next start (in 1 sheet), and 2 sheets not read far enough to count and the report of 1 sheet.',
    );
    expect(leftOverLine(left, nl)).toBe(
      '1 rij blijft over voor de volgende start (in 1 lijst), en 2 lijsten waarvan de rijen nog niet geteld zijn en het rapport van 1 lijst.',
    );
    expect(leftOverLine({ ...left, uncounted: 0, unreported: 0, rows: 2 }, fr)).toBe(
      '2 lignes restent pour le prochain démarrage (dans 1 liste).',
    );
  });
});

describe('a progress line', () => {
  it('says rows, rate and time left in the language', () => {
    let now = 0;
    const bars = new ProgressBars(process.stderr, () => now, Infinity, nl);
    const working = sheet({ state: 'processing', total: 2000, final: 0 });
    bars.update([working]);
    now = 10_000;
    bars.update([{ ...working, final: 1000 }]);
    const line = bars.line({ ...working, final: 1000 }, now);
    expect(line).toBe(
      'orders.csv  [##########----------] 1.000/2.000 rijen  100,0 rijen/s nog 10s',
    );
    expect(new ProgressBars(process.stderr, () => 0, Infinity, fr).line(sheet({}), 0)).toBe(
      'orders.csv  terminé\u202f: 0 ligne',
    );
  });
});

describe("import's summary", () => {
  const summary = {
    sheet: '/w/lijst.csv',
    reportDir: '/w/reports/lijst-S1',
    total: 3,
    created: 2,
    invalid: 1,
    failed: 0,
    needsReview: 0,
    duplicate: 0,
    warnings: [],
  } as unknown as Summary;

  it('has its headings and report line in Dutch and French, the numbers as they are', () => {
    const written = (words: typeof nl) => {
      let text = '';
      printSummaries([summary], { write: (t: string) => (text += t) } as never, '/w', words);
      return text;
    };
    expect(written(nl)).toContain('lijst      rijen  aangemaakt  ongeldig');
    expect(written(nl)).toContain('Rapport: reports/lijst-S1');
    expect(written(fr)).toContain('liste      lignes  créée  non valable  en échec');
    expect(written(en)).toContain(
      'sheet      rows  created  invalid  failed  needs-review  duplicate',
    );
  });

  it("the sandbox's planning, in Dutch", () => {
    expect(planningHint(30, nl)).toBe(
      'De testomgeving plant deze opdrachten 30 s na het aanmaken in: voer daarna `order-importer status` uit om de datums en keurders te zien.\n',
    );
  });
});

describe("Redis's warning at start", () => {
  it('is the English it always was', () => {
    const cost =
      'a restart of it loses the imports in flight and the duplicates ledger; the importer then stops that work and refuses to import until `order-importer ledger rebuild` has rebuilt the ledger from the reports. Turn AOF on (appendonly yes) to keep them.';
    expect(persistenceWarning({ kind: 'none' }, 'Redis')).toBe(
      `Redis keeps nothing on disk (no AOF, no snapshots): ${cost}`,
    );
    expect(persistenceWarning({ kind: 'snapshots', rules: '3600 1' }, 'Redis')).toBe(
      `Redis keeps only snapshots (save 3600 1), no AOF: what was written since the last snapshot is lost on a restart; ${cost}`,
    );
    expect(persistenceWarning({ kind: 'unknown' }, 'Redis')).toBe(
      `Redis has no AOF, and whether it takes snapshots cannot be asked (CONFIG is refused): if it keeps nothing on disk, ${cost}`,
    );
    expect(persistenceWarning({ kind: 'none' }, 'Redis', nl)).toMatch(
      /^Redis bewaart niets op schijf/,
    );
  });
});
