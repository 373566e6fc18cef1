import { mkdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { freePort } from '../../src/redis/local-server.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { orderImporter, ROOT } from '../helpers/cli.js';
import { put } from '../helpers/files.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

let w: TestWatch;
beforeAll(async () => {
  assertChromium();
  w = await testWatch();
});

/** The status of a GET with the Host header given (fetch sets its own). */
function statusAs(
  url: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { ...headers, host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}
afterAll(() => w.close());

describe('the dashboard', () => {
  it('shows a sheet with its counts and a report link that works, in a real browser', async () => {
    await w.start();
    const folder = join(w.inbox, 'agency');
    await put(folder, 'docs/plan.pdf', '%PDF-1.4');
    await writeCsvSheet(folder, 'weekly-orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2),
      sheetRow(3, { city: '' }),
    ]);
    const [sheet] = await w.done(1);
    const url = `http://127.0.0.1:${w.dashboardPort}/`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(url);
      const row = page.locator(`tr[data-sheet-id="${sheet?.sheetId ?? ''}"]`);
      await row.waitFor();
      const cells = await row.locator('td').allTextContents();
      // Its name, and the end of its id: two sheets of one name are told apart.
      expect(cells[0]).toBe(`weekly-orders.csv ${(sheet?.sheetId ?? '').split('-').pop() ?? ''}`);
      expect(cells[2]).toBe('done');
      expect(cells[3]).toBe('3/3');
      expect(cells.slice(4, 9)).toEqual(['2', '1', '0', '0', '0']);
      // The API the orders went to: the test's sandbox, reached by its URL, so no badge.
      expect(cells[11]).toContain(new URL(w.sandbox.url).host);
      expect(await row.locator('.sandbox').count()).toBe(0);

      const report = row.getByRole('link', { name: 'report.csv' });
      const href = await report.getAttribute('href');
      const answer = await page.request.get(new URL(href ?? '', url).toString());
      expect(answer.status()).toBe(200);
      expect((await answer.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
        'row;line;reference;status;order_id;inspection_ids;file_ids;attempts;error;address;contact_name;source_row;files',
      );
      const zip = await page.request.get(
        new URL(`/reports/${sheet?.sheetId ?? ''}/failed.zip`, url).toString(),
      );
      expect(zip.status()).toBe(200);
      expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');

      await mkdir(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({
        path: join(ROOT, 'test-artifacts', 'dashboard.png'),
        fullPage: true,
      });

      await page.goto(new URL('/queues', url).toString());
      await page.getByText('rows', { exact: false }).first().waitFor();
    } finally {
      await browser.close();
    }
  }, 90_000); // a watch process, an import and a browser: slow when the machine is busy

  it('answers /healthz with Redis and the API', async () => {
    const answer = await fetch(`http://127.0.0.1:${w.dashboardPort}/healthz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ok', reasons: [], redis: true, api: true });
  });
});

describe('the overview in a real browser', () => {
  it('badges a sandbox sheet and lists the sheets not taken, without running their text', async () => {
    const counts = { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 };
    const at = new Date().toISOString();
    const board = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      overview: () =>
        Promise.resolve([
          {
            sheetId: 'a',
            name: 'rehearsal.csv',
            startedAt: at,
            state: 'done',
            total: 1,
            final: 1,
            counts,
            apiHost: '127.0.0.1:4010',
            sandbox: true,
          },
          {
            sheetId: 'b',
            name: 'real.csv',
            startedAt: at,
            state: 'done',
            total: 1,
            final: 1,
            counts,
            apiHost: 'api.example.be',
            sandbox: false,
          },
        ]),
      notTaken: () =>
        Promise.resolve([
          {
            path: 'inbox/<img src=x onerror="document.title=1">.csv',
            reason: 'a symbolic link',
            at,
          },
        ]),
      health: () => Promise.resolve({ redis: true, api: true }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${board.url}/`);
      const rehearsal = page.locator('tr[data-sheet-id="a"] td.api');
      await rehearsal.waitFor();
      expect(await rehearsal.textContent()).toBe('127.0.0.1:4010sandbox');
      expect(await rehearsal.locator('.sandbox').isVisible()).toBe(true);
      const real = page.locator('tr[data-sheet-id="b"] td.api');
      expect(await real.textContent()).toBe('api.example.be');
      expect(await real.locator('.sandbox').count()).toBe(0);

      await page.getByRole('heading', { name: 'Sheets not taken' }).waitFor();
      const cells = await page.locator('#not-taken tbody td').allTextContents();
      expect(cells.slice(1)).toEqual([
        'inbox/<img src=x onerror="document.title=1">.csv',
        'a symbolic link',
      ]);
      expect(await page.locator('#not-taken time').getAttribute('datetime')).toBe(at);
      expect(await page.locator('#not-taken img').count()).toBe(0);
      expect(await page.title()).toBe('order-importer: imports');
    } finally {
      await browser.close();
      await board.close();
    }
  }, 60_000);
});

describe('the overview without and with its script', () => {
  const counts = { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 };
  const at = '2025-03-04T10:20:30.000Z';
  const sheetNamed = (sheetId: string, name: string): SheetProgress => ({
    sheetId,
    name,
    startedAt: at,
    state: 'done',
    total: 1,
    final: 1,
    counts,
    apiHost: '127.0.0.1:4010',
    sandbox: true,
  });

  it('is whole without JavaScript: the sheets and the sheets not taken', async () => {
    const board = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      overview: () => Promise.resolve([sheetNamed('a', 'first.csv')]),
      notTaken: () => Promise.resolve([{ path: 'inbox/old.xlsx', reason: 'a workbook', at }]),
      health: () => Promise.resolve({ redis: true, api: true }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${board.url}/`);
      const cells = await page.locator('tr[data-sheet-id="a"] td').allTextContents();
      expect(cells[0]).toBe('first.csv a');
      expect(cells[1]).toBe('4 Mar 2025, 11:20');
      expect(cells[11]).toBe('127.0.0.1:4010sandbox');
      expect(await page.locator('#updated').textContent()).toMatch(/^1 sheet, updated /);
      expect(await page.locator('#not-taken tbody td').allTextContents()).toEqual([
        '4 Mar 2025, 11:20',
        'inbox/old.xlsx',
        'a workbook',
      ]);
    } finally {
      await browser.close();
      await board.close();
    }
  }, 60_000);

  it("refreshes itself, in the browser's own time format, breaking no policy", async () => {
    const sheets = [sheetNamed('a', 'first.csv')];
    const board = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      overview: () => Promise.resolve([...sheets]),
      health: () => Promise.resolve({ redis: true, api: true }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const complaints: string[] = [];
      page.on('console', (message) => {
        // The browser asks for /favicon.ico on its own; the page has none (as before).
        const fromIcon = message.location().url.endsWith('/favicon.ico');
        if (message.type() === 'error' && !fromIcon) complaints.push(message.text());
      });
      page.on('pageerror', (error) => complaints.push(error.message));
      await page.goto(`${board.url}/`);
      // In the browser's zone, written as the page's language (English: en-GB) writes it, to the
      // minute as the server writes it.
      const local = await page.evaluate(
        (iso) =>
          new Intl.DateTimeFormat('en-GB', {
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).format(new Date(iso)),
        at,
      );
      const received = page.locator('tr[data-sheet-id="a"] td').nth(1);
      await expect.poll(() => received.textContent()).toBe(local);

      sheets.unshift(sheetNamed('b', '<b>second</b>.csv'));
      const added = page.locator('tr[data-sheet-id="b"] td').first();
      await added.waitFor({ timeout: 10_000 });
      expect(await added.textContent()).toBe('<b>second</b>.csv b');
      expect(await page.locator('#imports b').count()).toBe(0);
      expect(await page.locator('#updated').textContent()).toMatch(/^2 sheets, updated /);
      expect(await page.locator('tr[data-sheet-id="a"] td').nth(1).textContent()).toBe(local);
      expect(complaints).toEqual([]);
    } finally {
      await browser.close();
      await board.close();
    }
  }, 60_000);
});

describe('the dashboard alone', () => {
  it('shows what the watch process imported, with its report, and its own health', async () => {
    const port = await freePort();
    // Reached as dash.example.com (through a proxy): it asks for a login.
    const alone = orderImporter(
      ['dashboard', '--port', String(port), '--hosts', 'dash.example.com'],
      { ...w.env, DASHBOARD_USER: 'ops', DASHBOARD_PASSWORD: 'ops-password' },
    );
    const login = { authorization: `Basic ${Buffer.from('ops:ops-password').toString('base64')}` };
    try {
      await alone.waitForStderr(/Stop with Ctrl\+C/);
      expect(alone.stderr).toContain(
        'The dashboard answers only the host names localhost, 127.0.0.1, ::1, dash.example.com.',
      );
      const base = `http://127.0.0.1:${port}`;
      expect(await statusAs(`${base}/`, 'dash.example.com')).toBe(401);
      expect(await statusAs(`${base}/`, 'dash.example.com', login)).toBe(200);
      expect(await statusAs(`${base}/`, `evil.example:${port}`)).toBe(421);
      expect(await statusAs(`${base}/healthz`, 'evil.example')).toBe(421);
      const { imports } = (await (
        await fetch(`${base}/api/imports`, { headers: login })
      ).json()) as {
        imports: Array<{ sheetId: string; name: string; state: string; final: number }>;
      };
      expect(imports.map((s) => [s.name, s.state, s.final])).toEqual([
        ['weekly-orders.csv', 'done', 3],
      ]);
      const report = await fetch(`${base}/reports/${imports[0]?.sheetId ?? ''}/report.csv`, {
        headers: login,
      });
      expect(report.status).toBe(200);
      expect((await report.text()).split('\r\n')).toHaveLength(5);
      // The sheet's own page, from the sheet's record on Redis and its report.
      const sheetPage = await fetch(`${base}/sheets/${imports[0]?.sheetId ?? ''}?status=invalid`, {
        headers: login,
      });
      expect(sheetPage.status).toBe(200);
      const html = await sheetPage.text();
      expect(html).toContain('<h1>weekly-orders.csv</h1>');
      expect(html.match(/ data-row="\d+"/g)).toEqual([' data-row="3"']);
      expect(html).toContain('city is required: the city of the property.');
      const health = await fetch(`${base}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok', reasons: [], redis: true, api: true });
    } finally {
      alone.child.kill('SIGTERM');
    }
    const stopped = await alone.finished;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/Stopped\.\n$/);

    // On the embedded defaults the API lives inside the importing process: health leaves it out.
    const { API_BASE_URL: _url, API_TOKEN: _token, ...embedded } = w.env;
    const port2 = await freePort();
    const blind = orderImporter(['dashboard', '--port', String(port2)], embedded);
    try {
      await blind.waitForStderr(/"api": null/);
      const health = await fetch(`http://127.0.0.1:${port2}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', reasons: [], redis: true, api: null });
    } finally {
      blind.child.kill('SIGTERM');
    }
    expect((await blind.finished).code).toBe(0);
  });
});

describe('the dashboard beyond this machine', () => {
  it('refuses to start without a password, and asks for it when it has one', async () => {
    const refused = await orderImporter(['watch'], {
      ...w.env,
      DASHBOARD_HOST: '0.0.0.0',
      DASHBOARD_PORT: '0',
    }).finished;
    expect(refused.code).toBe(1);
    // Refused before anything started: no Redis, no sandbox, no workers were announced.
    expect(refused.stderr).toMatch(
      /^order-importer: the dashboard would listen on 0\.0\.0\.0, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD[^\n]*\n$/,
    );

    const port = await freePort();
    const guarded = await w.start({
      DASHBOARD_HOST: '0.0.0.0',
      DASHBOARD_PORT: String(port),
      DASHBOARD_USER: 'an',
      DASHBOARD_PASSWORD: 's3cret',
    });
    const anonymous = await fetch(`http://127.0.0.1:${port}/api/imports`);
    expect(anonymous.status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrong = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { authorization: `Basic ${btoa('an:nope')}` },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`http://127.0.0.1:${port}/api/imports`, {
      headers: { authorization: `Basic ${btoa('an:s3cret')}` },
    });
    expect(right.status).toBe(200);
    guarded.child.kill('SIGTERM');
    expect((await guarded.finished).code).toBe(0);
  });
});
