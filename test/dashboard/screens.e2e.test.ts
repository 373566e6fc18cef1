/**
 * The dashboard's screens as an office manager sees them, in a real browser at 1280 px and at a
 * phone's width (390 px), after a real `watch` imported a sheet with long addresses, attachments,
 * invalid rows and a mapping beside it, and `status` read its orders back from the sandbox: no
 * word of an address broken, no id broken, every date written as the language writes it, the
 * attachments by their names, the mapping named calmly by its file's name. Screenshots of each
 * screen go to test-artifacts/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SheetProgress } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT, runInProcess } from '../helpers/cli.js';
import { put } from '../helpers/files.js';
import { COLUMNS, type SheetRow, sheetRow } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const WIDTHS = [1280, 390] as const;

/** The sheet's own name for address1, which the mapping beside it maps. */
const STREET = 'Straat';

let w: TestWatch;
let browser: Browser;
let base: string;
let sheet: SheetProgress;

/** A semicolon CSV of these rows, its address1 column named as the mapping says. */
function csv(rows: readonly SheetRow[]): string {
  const quote = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const header = COLUMNS.map((c) => (c === 'address1' ? STREET : c));
  const lines = [
    header.join(';'),
    ...rows.map((r) => COLUMNS.map((c) => quote(r[c] ?? '')).join(';')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

beforeAll(async () => {
  assertChromium();
  // Planned a moment after creation: `status` reads dates and inspectors back.
  w = await testWatch({ sandbox: { planning: 0.001 } });
  await w.start();
  const folder = join(w.inbox, 'kortrijk');
  await put(folder, 'mapping.json', JSON.stringify({ columns: { [STREET]: 'address1' } }));
  await put(folder, 'plannen/grondplan-gelijkvloers.pdf', '%PDF plan');
  await put(folder, 'epc-certificaat-2019.pdf', '%PDF epc');
  await put(folder, 'asbestinventaris.pdf', '%PDF asbest');
  const rows = [
    sheetRow(1, {
      address1: 'Kortrijksesteenweg',
      address2: '1234',
      city: 'Sint-Martens-Latem',
      postal_code: '9830',
      files: 'plannen/grondplan-gelijkvloers.pdf|epc-certificaat-2019.pdf',
    }),
    sheetRow(2, {
      address1: 'Burgemeester Vandenbogaerdelaan',
      address2: '117',
      files: 'asbestinventaris.pdf',
    }),
    sheetRow(3, { address1: 'Oudenaardsesteenweg', city: '' }),
    sheetRow(4, { address1: 'Sint-Pietersnieuwstraat', contact_email: 'geen e-mail' }),
    sheetRow(5, { address1: 'Groot-Bijgaardenstraat' }),
  ];
  await put(folder, 'kantoor-kortrijk.csv', csv(rows));
  [sheet] = (await w.done(1, 60_000)) as [SheetProgress];
  const status = await runInProcess(['status', sheet.sheetId], { ...w.env });
  expect(status.code, status.stderr).toBe(0);
  base = `http://127.0.0.1:${w.dashboardPort}`;
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await w.close();
});

async function pageAt(width: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: 'nl-BE',
    timezoneId: 'Europe/Brussels',
  });
  return context.newPage();
}

/**
 * The words (between spaces and hyphens) of the cells `selector` finds that the browser broke
 * over two lines: each word's line boxes, by their tops.
 */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  // Runs in the page (this project's types have no DOM): each word's line boxes, by their tops.
  const find = `(cells) => {
    const broken = [];
    for (const cell of document.querySelectorAll(cells)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const word of node.textContent.matchAll(/[^\\s\\-\u2010]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          if (new Set(rects.map((r) => Math.round(r.top))).size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }`;
  return page.evaluate<string[]>(`(${find})(${JSON.stringify(selector)})`);
}

/** Whether the page is wider than the window (a horizontal scrollbar). */
function scrollWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

/** A date as the API or a machine writes it, not as a person reads it. */
const RAW_DATE = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;

describe("a sheet's page", () => {
  for (const width of WIDTHS) {
    it(`reads as an office manager's page at ${width} px`, async () => {
      const page = await pageAt(width);
      await page.goto(`${base}/sheets/${sheet.sheetId}?lang=nl`);
      expect(await page.locator('tr[data-row]').count()).toBe(5);
      await page.screenshot({
        path: join(ARTIFACTS, `screens-sheet-${width}.png`),
        fullPage: true,
      });

      // Addresses wrap between words, never inside one; ids never wrap.
      expect(await page.locator('#rows td.address').count()).toBe(5);
      expect(await page.locator('#rows td.id').count()).toBe(5);
      expect(await brokenWords(page, '#rows td.address')).toEqual([]);
      expect(await brokenWords(page, '#rows td.id, #rows .file, #rows td.error')).toEqual([]);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      // The rows fit: at 1280 px as a table, on a phone as cards, each value with its column's name.
      const overflow =
        'document.getElementById("rows").scrollWidth - document.getElementById("rows").clientWidth';
      expect(await page.evaluate<number>(overflow)).toBeLessThanOrEqual(0);
      if (width === 390) {
        const label = `getComputedStyle(document.querySelector('#rows td.address'), '::before').content`;
        expect(await page.evaluate<string>(label)).toMatch(/Adres/);
      }

      // The attachments by their names; their ids only as a tooltip.
      const files = page.locator('tr[data-row="1"] td.files');
      expect(await files.locator('.file').allTextContents()).toEqual([
        'grondplan-gelijkvloers.pdf',
        'epc-certificaat-2019.pdf',
      ]);
      expect(await files.locator('.file').first().getAttribute('title')).toMatch(/^\D*\d+$/);

      // Every date as Dutch writes it: no machine's date anywhere on the page.
      const text = await page.locator('body').innerText();
      expect(text).toContain('volgende keuring');
      expect(text).not.toMatch(RAW_DATE);
      expect(await page.locator('.inspection-date').count()).toBeGreaterThan(0);

      // The mapping named by its file's name, as a note: no path of the server, no warning box.
      const mapping = page.locator('.mapping-note');
      expect(await mapping.textContent()).toContain('mapping.json');
      expect(text).not.toContain(w.dataDir);
      expect(await page.locator('ul.warnings').count()).toBe(0);
      await page.context().close();
    }, 60_000);
  }

  it('shows no error column when none of its rows has an error', async () => {
    const page = await pageAt(1280);
    await page.goto(`${base}/sheets/${sheet.sheetId}?status=created&lang=nl`);
    expect(await page.locator('tr[data-row]').count()).toBe(3);
    expect(await page.locator('#rows th.error, #rows td.error').count()).toBe(0);
    await page.goto(`${base}/sheets/${sheet.sheetId}?status=invalid&lang=nl`);
    expect(await page.locator('#rows td.error').count()).toBe(2);
    await page.context().close();
  }, 60_000);
});

describe('the overview', () => {
  for (const width of WIDTHS) {
    it(`reads as an office manager's page at ${width} px`, async () => {
      const page = await pageAt(width);
      await page.goto(`${base}/?lang=nl`);
      await page.locator(`tr[data-sheet-id="${sheet.sheetId}"] .next-inspection`).waitFor();
      await page.screenshot({
        path: join(ARTIFACTS, `screens-overview-${width}.png`),
        fullPage: true,
      });
      const text = await page.locator('body').innerText();
      expect(text).not.toMatch(RAW_DATE);
      expect(text).not.toContain(w.dataDir);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      if (width === 1280) {
        // Every column in view: the table does not scroll sideways.
        const table = 'document.querySelector("table.imports")';
        const overflow = `${table}.scrollWidth - ${table}.clientWidth`;
        expect(await page.evaluate<number>(overflow)).toBeLessThanOrEqual(0);
      }
      await page.context().close();
    }, 60_000);
  }
});

describe('the search', () => {
  it('shows the rows found as cards at a phone’s width', async () => {
    const page = await pageAt(390);
    await page.goto(`${base}/search?q=kortrijksesteenweg&lang=nl`);
    expect(await page.locator('#hits tbody tr').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'screens-search-390.png'), fullPage: true });
    expect(await brokenWords(page, '#hits td.address')).toEqual([]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await page.context().close();
  }, 60_000);
});
