import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recentProgress } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

let w: TestWatch;
beforeAll(async () => {
  assertChromium();
  // Slow answers and two rows at a time: the sheet runs long enough to be watched.
  w = await testWatch({ sandbox: { faults: { latencyMs: 400 } } });
});
afterAll(() => w.close());

describe('a sheet being imported', () => {
  it('shows its rows as they end, its rate and time left, and turns into its report by itself', async () => {
    await w.start({ CONCURRENCY: '2' });
    const rows = Array.from({ length: 40 }, (_, i) =>
      sheetRow(500 + i, i === 4 || i === 9 ? { city: '' } : {}),
    );
    await writeCsvSheet(join(w.inbox, 'slow'), 'slow-orders.csv', rows);
    let sheetId: string | undefined;
    const deadline = Date.now() + 30_000;
    while (sheetId === undefined && Date.now() < deadline) {
      const [sheet] = await recentProgress(w.ctx.store);
      if (sheet?.state === 'processing' && sheet.final > 0) sheetId = sheet.sheetId;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sheetId).toBeDefined();
    const base = `http://127.0.0.1:${w.dashboardPort}`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/sheets/${sheetId ?? ''}`);
      expect(await page.locator('#sheet[data-live]').count()).toBe(1);
      expect(await page.locator('tr[data-status="pending"]').count()).toBeGreaterThan(0);
      // Its pace, measured while the page watches it.
      await page.locator('#sheet .pace').waitFor({ timeout: 10_000 });
      expect(await page.locator('#sheet .pace').textContent()).toMatch(
        /^[\d.]+ rows\/s · .+ left$/,
      );
      await mkdir(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-artifacts', 'sheet-running.png') });

      // Its invalid rows are known at once, from Redis.
      const invalid = await browser.newPage();
      await invalid.goto(`${base}/sheets/${sheetId ?? ''}?status=invalid`);
      const shown = await invalid.locator('tr[data-row]').all();
      expect(await Promise.all(shown.map((tr) => tr.getAttribute('data-row')))).toEqual([
        '5',
        '10',
      ]);
      await invalid.close();

      // The page refreshes itself until the report is written, then shows the report's rows.
      await page.locator('#sheet .state.done').waitFor({ timeout: 60_000 });
      expect(await page.locator('#sheet[data-live]').count()).toBe(0);
      expect(await page.locator('tr[data-status="pending"]').count()).toBe(0);
      expect(await page.locator('tr[data-row="1"] td').nth(3).textContent()).toBe(
        'Kerkstraat 500, 9000 Gent',
      );
    } finally {
      await browser.close();
    }
  }, 120_000);
});
