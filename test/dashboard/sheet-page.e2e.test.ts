import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SheetProgress } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

/** Where the screenshots go, for a person to look at (git-ignored). */
const ARTIFACTS = join(ROOT, 'test-artifacts');
const WIDTH = 1280;

let w: TestWatch;
let browser: Browser;
let base: string;
let north: SheetProgress;
let south: SheetProgress;

/** The row of the hostile cells: HTML, a bidi override, a control character. */
const HOSTILE_REFERENCE = '<script>document.title="owned"</script>';
const HOSTILE_CONTACT = 'Ann \u202Efdp.exe\u0007';
const LONG_NAME =
  'orders-of-the-agency-of-the-north-western-district-exported-on-2026-11-26-at-noon';

beforeAll(async () => {
  assertChromium();
  w = await testWatch();
  await w.start();
  await writeCsvSheet(join(w.inbox, 'north'), 'north-orders.csv', [
    sheetRow(1),
    sheetRow(2, { city: '' }),
    sheetRow(3, { reference: HOSTILE_REFERENCE, contact_name: HOSTILE_CONTACT }),
  ]);
  await writeCsvSheet(join(w.inbox, 'south'), 'south-orders.csv', [
    sheetRow(11, { reference: 'FIND-ME-42', address1: 'Veldstraat' }),
    sheetRow(12),
  ]);
  // A name with no space to break at must not widen the page.
  await writeCsvSheet(join(w.inbox, 'long'), `${LONG_NAME}.csv`, [
    sheetRow(21, { address1: 'Koningin-Elisabethlaan-Zuid-Westelijke-Zijstraat-Nummer' }),
  ]);
  // A quote never closed: the hot folder cannot read it, and moves it to failed/.
  await writeFile(join(w.inbox, 'broken.csv'), 'city,remark\nGent,"never closed\n');
  // A workbook in a format that stays refused, and a sheet that is a link: both stay, with why.
  await writeFile(join(w.inbox, 'old-orders.ods'), 'PK\u0003\u0004 a workbook');
  const elsewhere = await tempDir('dashboard-elsewhere-');
  await writeCsvSheet(elsewhere, 'linked.csv', [sheetRow(31)]);
  await symlink(join(elsewhere, 'linked.csv'), join(w.inbox, 'linked.csv'));
  const sheets = await w.done(3, 60_000);
  north = sheets.find((s) => s.name === 'north-orders.csv') as SheetProgress;
  south = sheets.find((s) => s.name === 'south-orders.csv') as SheetProgress;
  base = `http://127.0.0.1:${w.dashboardPort}`;
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await w.close();
});

async function widePage(javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: WIDTH, height: 900 },
    javaScriptEnabled,
    // A locale whose own clock has AM and PM: the page must still show 24 hours.
    locale: 'en-US',
    timezoneId: 'Europe/Brussels',
  });
  return context.newPage();
}

/** Whether the page is wider than the window (a horizontal scrollbar). */
function scrollWidth(page: Page): Promise<number> {
  // Runs in the page, where `document` is the page's.
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

describe('the overview', () => {
  it('lists the sheets with links to their pages and the unreadable sheet with why, in 1280 px', async () => {
    const page = await widePage();
    await page.goto(`${base}/`);
    const link = page.locator(`tr[data-sheet-id="${north.sheetId}"] td.sheet a`).first();
    expect(await link.getAttribute('href')).toBe(`/sheets/${north.sheetId}`);
    await page.getByRole('heading', { name: 'Sheets not taken' }).waitFor({ timeout: 15_000 });
    const notTaken = () => page.locator('#not-taken tbody tr').allTextContents();
    const listed = async (shape: RegExp) => (await notTaken()).some((line) => shape.test(line));
    // The list is refreshed in place by the page's script.
    await expect.poll(() => listed(/broken\.csv.*cannot be read.*never closed/s)).toBe(true);
    await expect.poll(() => listed(/old-orders\.ods.*spreadsheet format.*\.xlsx/s)).toBe(true);
    await expect.poll(() => listed(/linked\.csv.*symbolic link/s)).toBe(true);
    // Dates in the browser's own way, with a 24-hour clock.
    const received = page.locator(`tr[data-sheet-id="${north.sheetId}"] time`).first();
    await expect.poll(() => received.textContent()).not.toMatch(/UTC$/);
    expect(await received.textContent()).not.toMatch(/AM|PM/);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: join(ARTIFACTS, 'overview.png'), fullPage: true });
    await page.context().close();
  }, 60_000);

  it('is whole without its script', async () => {
    const page = await widePage(false);
    await page.goto(`${base}/`);
    const names = await page.locator('#imports td.sheet a').allTextContents();
    expect(names.sort()).toEqual(['north-orders.csv', `${LONG_NAME}.csv`, 'south-orders.csv']);
    expect(await page.locator('#not-taken').textContent()).toContain('broken.csv');
    // Without the script, Belgian time as the page's language writes it.
    expect(await page.locator('#imports time').first().textContent()).toMatch(
      /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}$/,
    );
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.context().close();
  }, 60_000);
});

describe("a sheet's page", () => {
  it("shows each row's error and filters by status, every cell as text", async () => {
    const page = await widePage();
    await page.goto(`${base}/`);
    await page.locator(`tr[data-sheet-id="${north.sheetId}"] td.sheet a`).first().click();
    await page.waitForURL(`${base}/sheets/${north.sheetId}`);
    expect(await page.locator('h1').textContent()).toBe('north-orders.csv');
    expect(await page.locator('tr[data-row]').count()).toBe(3);
    const invalid = page.locator('tr[data-row="2"]');
    expect(await invalid.locator('.status').textContent()).toBe('invalid');
    expect(await invalid.locator('td.error').textContent()).toMatch(/city is required/);
    expect(await invalid.locator('td').nth(3).textContent()).toBe('Kerkstraat 2, 9000');

    // The hostile row: shown as written, its invisible characters made visible, nothing run.
    const hostile = page.locator('tr[data-row="3"]');
    expect(await hostile.locator('td').nth(2).textContent()).toBe(HOSTILE_REFERENCE);
    expect(await hostile.locator('td').nth(4).textContent()).toBe('Ann <U+202E>fdp.exe<U+0007>');
    expect(await page.title()).toBe('north-orders.csv · order-importer');
    expect(await page.locator('#rows script').count()).toBe(0);

    await page.locator('nav.filter a', { hasText: 'invalid' }).click();
    await page.waitForURL(/\?status=invalid$/);
    const rows = page.locator('tr[data-row]');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-row')).toBe('2');
    expect(await page.locator('nav.filter a[aria-current="page"]').textContent()).toBe('invalid 1');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.goto(`${base}/sheets/${north.sheetId}`);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: join(ARTIFACTS, 'sheet-page.png'), fullPage: true });
    await page.context().close();
  }, 60_000);

  it('answers an unknown sheet with a 404 page, and a query out of bounds with a 400 page', async () => {
    const page = await widePage(false);
    const unknown = await page.goto(`${base}/sheets/20990101-000000-abcdef`);
    expect(unknown?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('No such sheet');
    const hostile = await page.goto(`${base}/sheets/${encodeURIComponent('<b>x</b>')}`);
    expect(hostile?.status()).toBe(404);
    expect(await page.locator('main b').count()).toBe(0);
    for (const query of ['status=lost', 'page=0', 'page=-1', 'page=abc', 'page=1e9']) {
      const answer = await page.goto(`${base}/sheets/${north.sheetId}?${query}`);
      expect(answer?.status(), query).toBe(400);
    }
    // A page past the last shows the last.
    await page.goto(`${base}/sheets/${north.sheetId}?status=invalid&page=7`);
    expect(page.url()).toBe(`${base}/sheets/${north.sheetId}?status=invalid&page=1`);
    await page.context().close();
  }, 60_000);
});

describe('the search', () => {
  it('finds a reference in another sheet, and says how much it searched', async () => {
    const page = await widePage();
    await page.goto(`${base}/`);
    await page.getByRole('searchbox').fill('find-me-42');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=find-me-42$/);
    const hits = page.locator('#hits tbody tr');
    expect(await hits.count()).toBe(1);
    expect(await hits.first().getAttribute('data-sheet-id')).toBe(south.sheetId);
    expect(await hits.first().locator('td').nth(3).textContent()).toBe('FIND-ME-42');
    expect(await hits.first().locator('td').nth(4).textContent()).toBe('Veldstraat 11, 9000 Gent');
    expect(await page.locator('#searched').textContent()).toMatch(
      /^1 found for “find-me-42” in 3 reported sheets, 6 rows\./,
    );
    await hits.first().locator('a').click();
    await page.waitForURL(`${base}/sheets/${south.sheetId}?page=1#row-1`);
    expect(await page.locator('tr:target').getAttribute('data-row')).toBe('1');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.goBack();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: join(ARTIFACTS, 'search.png'), fullPage: true });

    // By a contact's name, any case; nothing found is said as such.
    await page.goto(`${base}/search?q=${encodeURIComponent('CONTACT 12')}`);
    expect(await page.locator('#hits tbody tr').count()).toBe(1);
    await page.goto(`${base}/search?q=nowhere-at-all`);
    expect(await page.locator('#searched').textContent()).toMatch(/^Nothing found/);
    await page.context().close();
  }, 60_000);
});
