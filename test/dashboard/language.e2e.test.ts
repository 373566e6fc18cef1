/**
 * The dashboard in Dutch and in French, in a real browser: the language its Accept-Language asks
 * for, the switch on every page, and the choice kept while going from page to page. Screenshots
 * of the overview and a sheet's page in both go to test-artifacts/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { put } from '../helpers/files.js';
import { reportOf, sheetOf } from '../helpers/reports.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const WIDTH = 1280;
const CHECKED = '2026-11-26T09:15:00.000Z';
const STATUS = [
  'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at',
  `1;REF-1;1001;scheduled;;1;EPC;2026-12-03 09:00:00;Hélène Dubois;${CHECKED}`,
  `2;REF-2;1002;cancelled;Dubbel besteld;2;Asbest;2026-12-01 14:30:00;;${CHECKED}`,
];
const NOW = new Date(2026, 10, 26, 12, 0, 0);

let dashboard: RunningDashboard;
let browser: Browser;

beforeAll(async () => {
  assertChromium();
  const gent = await reportOf(6);
  await put(gent, 'status.csv', `\uFEFF${STATUS.join('\r\n')}\r\n`);
  const sheets: SheetProgress[] = [
    {
      sheetId: 'antwerpen',
      name: 'antwerpen-opdrachten.xlsx',
      startedAt: '2026-11-26T10:58:00.000Z',
      state: 'processing',
      total: 1250,
      final: 480,
      counts: { created: 470, invalid: 8, failed: 0, 'needs-review': 2, duplicate: 0 },
      apiHost: 'api.example.be',
      connection: 'antwerpen',
    },
    {
      ...sheetOf(gent, 6, 'gent'),
      name: 'gent-keuringen.csv',
      startedAt: '2026-11-26T09:02:00.000Z',
      finishedAt: '2026-11-26T09:04:10.000Z',
      apiHost: 'api.example.be',
      connection: 'gent',
    },
  ];
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve(sheets),
    notTaken: () =>
      Promise.resolve([
        { path: 'oud-formaat.ods', reason: 'an .ods workbook', at: '2026-11-26T08:30:00.000Z' },
      ]),
    clock: () => NOW,
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser.close();
  await dashboard.close();
});

/** A browser set to a Belgian locale: its Accept-Language asks for that language. */
async function browserIn(locale: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: WIDTH, height: 900 },
    locale,
    timezoneId: 'Europe/Brussels',
  });
  return context.newPage();
}

function scrollWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

const lang = (page: Page) => page.evaluate<string>('document.documentElement.lang');

describe('the dashboard in Dutch and French', () => {
  it('speaks Dutch to a Flemish browser, overview and sheet page, within 1280 px', async () => {
    const page = await browserIn('nl-BE');
    const answer = await page.goto(`${dashboard.url}/`);
    expect(answer?.headers()['content-language']).toBe('nl');
    expect(await lang(page)).toBe('nl');
    expect(await page.locator('h1').textContent()).toBe('Lijsten');
    expect(await page.locator('th').allTextContents()).toContain('Na te kijken');
    expect(await page.locator('tr[data-sheet-id="gent"] .state').textContent()).toBe('klaar');
    // The cancelled order's date is no inspection ahead.
    expect(await page.locator('tr[data-sheet-id="gent"] .next-inspection').textContent()).toBe(
      '3 dec 2026, 09:00',
    );
    expect(await page.locator('#not-taken').textContent()).toContain('oud-formaat.ods');
    expect(await page.getByRole('heading', { name: 'Niet opgenomen lijsten' }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'overview-nl.png'), fullPage: true });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);

    await page.locator('tr[data-sheet-id="gent"] td.sheet a').click();
    await page.waitForURL(`${dashboard.url}/sheets/gent`);
    expect(await page.locator('dl.facts dt').allTextContents()).toEqual([
      'Verbinding',
      'Ontvangen',
      'Rapport klaar',
      'Duur',
      'Rijen',
      'Rapport',
      'Opdrachten',
      'Openstaande problemen',
    ]);
    expect(await page.locator('#rows-said').textContent()).toBe('Rijen 1–6 van 6.');
    expect(await page.locator('tr[data-row="3"] .status').textContent()).toBe('ongeldig');
    // The API's words stay as it says them.
    expect(await page.locator('tr[data-row="1"] .order-state').textContent()).toBe('scheduled');
    expect(await page.locator('tr[data-row="2"] li').textContent()).toBe(
      'Asbest (2) · 1 dec 2026, 14:30 · nog geen keurder',
    );
    expect(await page.title()).toBe('gent-keuringen.csv · order-importer');
    await page.screenshot({ path: join(ARTIFACTS, 'sheet-nl.png'), fullPage: true });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.context().close();
  }, 60_000);

  it('switches to French with the switch, and stays French from page to page', async () => {
    const page = await browserIn('nl-BE');
    await page.goto(`${dashboard.url}/sheets/gent?status=invalid`);
    expect(await lang(page)).toBe('nl');
    await page.locator('nav.languages a', { hasText: 'Français' }).click();
    await page.waitForURL(`${dashboard.url}/sheets/gent?status=invalid&lang=fr`);
    expect(await lang(page)).toBe('fr');
    expect(await page.locator('nav.filter a[aria-current="page"]').textContent()).toBe(
      'non valable 2',
    );
    expect(await page.locator('#rows-said').textContent()).toBe('Lignes non valables 1 à 2 sur 2.');
    expect(await page.locator('nav.languages [aria-current]').textContent()).toBe('Français');

    // The links of the page carry no language: the switch's cookie does.
    await page.locator('header.top nav a', { hasText: 'Listes' }).click();
    await page.waitForURL(`${dashboard.url}/`);
    expect(await lang(page)).toBe('fr');
    expect(await page.locator('h1').textContent()).toBe('Listes importées');
    expect(await page.locator('tr[data-sheet-id="antwerpen"] .state').textContent()).toBe(
      'en cours',
    );
    expect(await page.locator('#updated').textContent()).toMatch(/^2 listes, mise à jour/);
    await page.screenshot({ path: join(ARTIFACTS, 'overview-fr.png'), fullPage: true });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);

    await page.locator('tr[data-sheet-id="gent"] td.sheet a').click();
    await page.waitForURL(`${dashboard.url}/sheets/gent`);
    expect(await lang(page)).toBe('fr');
    expect(await page.locator('dl.facts dt').first().textContent()).toBe('Connexion');
    expect(await page.locator('tr[data-row="2"] li').textContent()).toBe(
      'Asbest (2) · 1 déc. 2026, 14:30 · pas encore de technicien',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'sheet-fr.png'), fullPage: true });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);

    // And back to Dutch, the same way.
    await page.locator('nav.languages a', { hasText: 'Nederlands' }).click();
    await page.waitForURL(`${dashboard.url}/sheets/gent?lang=nl`);
    expect(await page.locator('dl.facts dt').first().textContent()).toBe('Verbinding');
    await page.context().close();
  }, 60_000);

  it('switches without the page’s script too', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-BE' });
    const page = await context.newPage();
    await page.goto(`${dashboard.url}/search?q=REF-2`);
    expect(await page.locator('#searched').textContent()).toMatch(
      /^1 résultat pour «\u202FREF-2\u202F»/,
    );
    await page.locator('nav.languages a', { hasText: 'English' }).click();
    await page.waitForURL(`${dashboard.url}/search?q=REF-2&lang=en`);
    expect(await page.locator('#searched').textContent()).toMatch(/^1 found for “REF-2”/);
    await context.close();
  }, 60_000);
});
