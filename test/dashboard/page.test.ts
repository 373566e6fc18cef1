import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { assetsDir, loadPageAssets } from '../../src/dashboard/assets.js';
import { overviewPage, PLACES } from '../../src/dashboard/page.js';
import { wordsFor } from '../../src/language/words.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';

const template = await readFile(join(assetsDir(), 'page.html'), 'utf8');
const words = wordsFor('en');
const now = new Date('2025-03-04T10:21:00.000Z');

function sheet(overrides: Partial<SheetProgress> = {}): SheetProgress {
  return {
    sheetId: 's1',
    name: 'orders.csv',
    startedAt: '2025-03-04T10:20:30.000Z',
    state: 'done',
    total: 4,
    final: 4,
    counts: { created: 1, invalid: 2, failed: 0, 'needs-review': 1, duplicate: 0 },
    reportDir: '/reports/orders-s1',
    apiHost: 'api.example.be',
    sandbox: false,
    ...overrides,
  };
}

function render(sheets: SheetProgress[] | Error): string {
  return overviewPage(template, { words, sheets, notTaken: undefined, now });
}

describe('the overview page', () => {
  it('says of a sheet which rows later sheets fixed, where, and counts them open no more', () => {
    const later = '2025-03-05T09:00:00.000Z';
    const page = render([
      sheet({
        sheetId: '20250304-102030-aaaaaa',
        fixedLater: {
          invalid: 2,
          failed: 0,
          by: [
            { sheetId: '20250305-090000-bbbbbb', name: 'orders.csv', startedAt: later, rows: 2 },
          ],
        },
      }),
      sheet({
        sheetId: '20250305-090000-bbbbbb',
        fixes: { sheetId: '20250304-102030-aaaaaa', name: 'orders.csv', startedAt: later },
      }),
    ]);
    const [original, fix] = [...page.matchAll(/<tr data-sheet-id=.*?<\/tr>/g)].map((m) => m[0]);
    expect(original).toContain(
      '<span class="short-id" title="Sheet 20250304-102030-aaaaaa">aaaaaa</span>',
    );
    expect(original).toMatch(
      /2 rows fixed later in <a href="\/sheets\/20250305-090000-bbbbbb">orders\.csv of <time[^>]*>[^<]+<\/time> \(bbbbbb\)<\/a>/,
    );
    expect(original).toContain('<td class="n" data-status="invalid">0</td>');
    expect(fix).toMatch(/fixes rows of <a href="\/sheets\/20250304-102030-aaaaaa">orders\.csv/);
    expect(fix).toContain('<td class="n bad" data-status="invalid">2</td>');
  });

  it('is page.html with a line per sheet, its counts, duration, report links and API', () => {
    const page = render([sheet(), sheet({ sheetId: 's2', name: 'b.csv', sandbox: true })]);
    expect(page.startsWith(template.split(PLACES.updated)[0] ?? '')).toBe(true);
    expect(page).toContain('2 sheets, updated <time datetime="2025-03-04T10:21:00.000Z"');
    const row = /<tr data-sheet-id="s1">.*?<\/tr>/.exec(page)?.[0] ?? '';
    const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual([
      '<a href="/sheets/s1">orders.csv</a> <span class="short-id" title="Sheet s1">s1</span>',
      '<time datetime="2025-03-04T10:20:30.000Z" data-show="date-time">4 Mar 2025, 11:20</time>',
      '<span class="state done">done</span>',
      '<progress max="4" value="4"></progress>4/4',
      '1',
      '2',
      '0',
      '1',
      '0',
      '30 s',
      '<a href="/reports/s1/report.csv">report.csv</a> <a href="/reports/s1/failed.zip">failed/ (zip)</a> <a href="/reports/s1/needs-review.csv">needs-review.csv</a> <a href="/reports/s1/summary.json">summary.json</a> ',
      'api.example.be',
    ]);
    expect(row).toContain('<td class="n bad" data-status="invalid">2</td>');
    expect(page).toContain('<td class="api">api.example.be<span class="sandbox">sandbox</span>');
  });

  it('names the connection, the import a duplicate repeats, and how fast a running sheet goes', () => {
    const page = overviewPage(template, {
      words,
      sheets: [
        sheet({ sheetId: 's2', duplicateOf: 's1', connection: 'gent' }),
        sheet({ state: 'processing', reportDir: undefined, final: 1 }),
      ],
      notTaken: undefined,
      now,
      paces: new Map([['s1', { perSecond: 2.5, secondsLeft: 80 }]]),
    });
    expect(page).toContain(
      '<a href="/sheets/s2">orders.csv</a> <span class="short-id" title="Sheet s2">s2</span><div class="note">duplicate of <a href="/sheets/s1">orders.csv (s1)</a></div>',
    );
    expect(page).toContain('<span class="connection">gent</span> api.example.be');
    expect(page).toContain('1/4<div class="pace">2.5 rows/s · 1 min 20 s left</div>');
  });

  it('escapes every text of the users, and keeps $ patterns as text', () => {
    const page = render([
      sheet({
        sheetId: 'x"><script>',
        name: `<img src=x onerror=alert(1)>$'$&.csv`,
        apiHost: '<b>',
      }),
    ]);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
    expect(page).toContain('href="/sheets/x%22%3E%3Cscript%3E"');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;$&#39;$&amp;.csv');
    expect(page).toContain('data-sheet-id="x&quot;&gt;&lt;script&gt;"');
    expect(page).toContain('href="/reports/x%22%3E%3Cscript%3E/report.csv"');
    expect(page.match(/<!doctype html>/g)).toHaveLength(1);
  });

  it('links no report before there is one, and counts a sheet still running up to now', () => {
    const page = render([
      sheet({ reportDir: undefined, total: undefined, final: 0, state: 'processing' }),
    ]);
    expect(page).not.toContain('/reports/');
    expect(page).toContain('<progress max="1" value="0"></progress>0/?');
    expect(page).toContain('<td class="duration">30 s</td>');
  });

  it('is still shown when the sheets cannot be read, and says so', () => {
    const page = render(new Error('Redis <gone>'));
    expect(page).toContain('The imports cannot be read now: Redis &lt;gone&gt;');
    expect(page).not.toContain('<tr data-sheet-id');
  });
});

describe('the page files', () => {
  it('are read from the package, each place of page.html marked once', async () => {
    const assets = await loadPageAssets();
    expect(assets.template).toBe(template);
    expect([...assets.files.keys()].sort()).toEqual(['page.css', 'page.js']);
  });

  it('refuse to load a page.html that lost one of its places, naming it', async () => {
    const dir = await tempDir('dashboard-assets-');
    await put(dir, 'page.html', template.replace(PLACES.imports, ''));
    await put(dir, 'frame.html', await readFile(join(assetsDir(), 'frame.html'), 'utf8'));
    await put(dir, 'page.css', '');
    await put(dir, 'page.js', '');
    await expect(loadPageAssets(dir)).rejects.toThrow(/page\.html must hold <!-- imports --> once/);
  });
});
