/**
 * The orders of reported sheets, as their status.csv says them, in a real browser over real
 * HTTP: the overview's counts and next inspection, a sheet page's order of each row, and what a
 * status.csv that cannot be read makes the pages say.
 */
import { mkdir, truncate } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { put } from '../helpers/files.js';
import { reportOf, sheetOf } from '../helpers/reports.js';

const HEADER =
  'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at';
const CHECKED = '2026-11-26T09:15:00.000Z';
const SCRIPT = '<script>document.title="owned"</script>';

/**
 * Rows 1, 2, 4 and 5 of a report of six (3 and 6 are invalid): two scheduled orders (one with two
 * inspections, one with a past date and a hostile product), one cancelled (with a date earlier
 * than any other: not next), one deleted. Written as `order-importer status` writes it.
 */
const STATUS = [
  HEADER,
  `1;REF-1;1001;scheduled;;1;EPC;2026-12-03 09:00:00;Hélène Dubois;${CHECKED}`,
  `1;REF-1;1001;scheduled;;2;Asbestos;2026-12-01 14:30:00;Jan Peeters;${CHECKED}`,
  `2;REF-2;1002;cancelled;"Klant heeft geannuleerd; dubbel besteld";1;EPC;2026-11-27 08:00:00;;${CHECKED}`,
  `4;REF-4;1004;scheduled;;3;"${SCRIPT.replaceAll('"', '""')}";2026-11-20 09:00:00;Ann;${CHECKED}`,
  `5;REF-5;1005;not found;;;;;;${CHECKED}`,
];

/** Where the screenshots go, for a person to look at (git-ignored). */
const ARTIFACTS = join(ROOT, 'test-artifacts');

/** The moment the dashboard is told it is: the machine's wall clock, as the API's dates are. */
const NOW = new Date(2026, 10, 26, 12, 0, 0);

let dashboard: RunningDashboard;
let browser: Browser;
let base: string;

beforeAll(async () => {
  assertChromium();
  const north = await reportOf(6);
  await put(north, 'status.csv', `\uFEFF${STATUS.join('\r\n')}\r\n`);
  const broken = await reportOf(3);
  await put(broken, 'status.csv', '\uFEFFrow;status\r\n1;<b>done</b>\r\n');
  const huge = await reportOf(3);
  await put(huge, 'status.csv', `\uFEFF${HEADER}\r\n`);
  await truncate(join(huge, 'status.csv'), 200 * 1024 * 1024);
  const plain = await reportOf(3);
  const sheets = [
    sheetOf(north, 6, 'north'),
    sheetOf(broken, 3, 'broken'),
    sheetOf(huge, 3, 'huge'),
    sheetOf(plain, 3, 'plain'),
  ];
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve(sheets),
    clock: () => NOW,
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
  base = dashboard.url;
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser.close();
  await dashboard.close();
});

/** Whether the page is wider than the window (a horizontal scrollbar). */
function scrollWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const answer = await page.goto(`${base}${path}`);
  expect(answer?.status()).toBe(200);
  return page;
}

describe('the overview', () => {
  it("shows each reported sheet's orders by status and its next inspection", async () => {
    const page = await open('/');
    const cell = page.locator('tr[data-sheet-id="north"] td.links .sheet-orders');
    expect(await cell.locator('.orders').textContent()).toBe(
      '2 scheduled · 1 cancelled · 1 not found',
    );
    // Not the cancelled order's earlier date, nor the past one.
    expect(await cell.locator('.next-inspection').textContent()).toBe('1 Dec 2026, 14:30');
    expect(await cell.locator('time').getAttribute('datetime')).toBe(CHECKED);
    expect(await page.locator('tr[data-sheet-id="plain"] td.links .sheet-orders').count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(ARTIFACTS, 'overview-orders.png'), fullPage: true });
    await page.context().close();
  }, 60_000);

  it('says which status.csv could not be read and why, and shows the rest', async () => {
    const page = await open('/');
    const broken = page.locator('tr[data-sheet-id="broken"] td.links .sheet-orders');
    expect(await broken.textContent()).toMatch(
      /^status\.csv could not be read: its header lacks reference, order_id, order_status/,
    );
    expect(
      await page.locator('tr[data-sheet-id="huge"] td.links .sheet-orders').textContent(),
    ).toMatch(/^status\.csv could not be read: it is 200 MB, more than the 64 MB/);
    expect(await page.locator('tr[data-sheet-id]').count()).toBe(4);
    await page.context().close();
  }, 60_000);
});

describe("a sheet's page", () => {
  it("shows each row's order: its status, cancel reason and inspections, as text", async () => {
    const page = await open('/sheets/north');
    const facts = page.locator('dl.facts');
    expect(await facts.textContent()).toContain('2 scheduled · 1 cancelled · 1 not found');
    const first = page.locator('tr[data-row="1"] td.order-status');
    expect(await first.locator('.order-state').textContent()).toBe('scheduled');
    expect(await first.locator('.inspector').allTextContents()).toEqual([
      'Hélène Dubois',
      'Jan Peeters',
    ]);
    expect(await first.locator('li').first().textContent()).toBe(
      'EPC (1) · 3 Dec 2026, 09:00 · Hélène Dubois',
    );
    const cancelled = page.locator('tr[data-row="2"] td.order-status');
    expect(await cancelled.locator('.cancel-reason').textContent()).toBe(
      'Klant heeft geannuleerd; dubbel besteld',
    );
    expect(await cancelled.locator('li').textContent()).toBe(
      'EPC (1) · 27 Nov 2026, 08:00 · no inspector yet',
    );
    // The hostile product: shown as written, never run.
    const hostile = page.locator('tr[data-row="4"] td.order-status li');
    expect(await hostile.textContent()).toBe(`${SCRIPT} (3) · 20 Nov 2026, 09:00 · Ann`);
    expect(await page.locator('#rows script').count()).toBe(0);
    expect(await page.title()).toBe('north.csv · order-importer');
    // An invalid row has no order; a deleted order says so, with no inspection.
    expect(await page.locator('tr[data-row="3"] td.order-status').textContent()).toBe('');
    expect(await page.locator('tr[data-row="5"] td.order-status').textContent()).toBe('not found');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(ARTIFACTS, 'sheet-orders.png'), fullPage: true });
    await page.context().close();
  }, 60_000);

  it('says its status.csv could not be read, and still shows its rows', async () => {
    const page = await open('/sheets/broken');
    expect(await page.locator('dl.facts .status-problem').textContent()).toMatch(
      /^status\.csv could not be read: its header lacks/,
    );
    expect(await page.locator('dl.facts b').count()).toBe(0);
    expect(await page.locator('tr[data-row]').count()).toBe(3);
    await page.context().close();
  }, 60_000);

  it('has no order column for a sheet without status.csv', async () => {
    const page = await open('/sheets/plain');
    expect(await page.locator('tr[data-row]').count()).toBe(3);
    expect(await page.locator('td.order-status').count()).toBe(0);
    expect(await page.locator('dl.facts').textContent()).not.toContain('Orders');
    await page.context().close();
  }, 60_000);
});
