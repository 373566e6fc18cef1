/**
 * The agenda through the real dashboard (`dashboard` alone, over HTTP and in Chromium) against
 * orders planned by the real sandbox: imported through the CLI, read back by `status`, moved and
 * cancelled by the sandbox's planners. The .ics and the office's feed are read by ical.js, a
 * parser we did not write; the CSV and the workbook are read back.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import ICAL from 'ical.js';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboardAlone, startDashboardAlone } from '../../src/app/dashboard.js';
import type { Summary } from '../../src/report/report.js';
import { loadSettings } from '../../src/settings/load.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { ROOT, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const ROWS = 8;
const PLANNING_S = 60;
const AUTH = `Basic ${Buffer.from('office:secret').toString('base64')}`;

let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
let running: RunningDashboardAlone;
let base: string;
let summary: Summary;
const logged: string[] = [];
const clock = { now: Math.floor(Date.now() / 1000) * 1000 };

const env = () => ({
  REDIS_URL: redis.url,
  QUEUE_PREFIX: `{${redis.prefix}}`,
  API_BASE_URL: sandbox.url,
  API_TOKEN: 'sandbox-demo-token',
  DATA_DIR: dataDir,
  RETRY_DELAY_MS: '50',
});

/** A sheet whose rows carry a phone, one with a comma and semicolon in its contact's name. */
async function writeSheet(dir: string): Promise<string> {
  const head =
    'reference;property_type;address1;address2;city;postal_code;contact_name;contact_language;contact_email;contact_phone1;inv_mail;invoice_to;is_contact_owner;order_products';
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const n = i + 1;
    const contact = n === 1 ? '"Peeters, An; Bert"' : `Contact ${n}`;
    const products = n === 2 ? 'EPC,ASB-ATT' : 'EPC';
    return `AG-${n};Andere;Kortrijksesteenweg;${n};Gent;9000;${contact};nl;c${n}@example.be;+32 9 123 45 ${String(n).padStart(2, '0')};facturen@example.be;tenant;contact;${products}`;
  });
  return put(dir, 'agenda-orders.csv', `${[head, ...rows].join('\r\n')}\r\n`);
}

async function status(): Promise<void> {
  const run = await runInProcess(['status', '--json', summary.sheetId], env());
  expect(run.code, run.stderr).toBe(0);
}

async function get(path: string, auth = true): Promise<Response> {
  return fetch(`${base}${path}`, { headers: auth ? { authorization: AUTH } : {} });
}

function events(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zone = calendar.getFirstSubcomponent('vtimezone');
  if (zone !== null) ICAL.TimezoneService.register(zone);
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

async function orderIds(): Promise<number[]> {
  const answer = await sandbox.api.send('GET', '/__sandbox/orders');
  return (answer.json as { data: Array<{ id: number }> }).data.map((o) => o.id);
}

async function replan(id: number, body: unknown): Promise<void> {
  const answer = await sandbox.api.send('POST', `/__sandbox/orders/${id}/planning`, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status, answer.text).toBe(200);
}

/** A day and hour 10 days on, in the API's wall-clock shape. */
function daysOn(days: number, hour: string): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${hour}`;
}

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox({ planning: PLANNING_S }, { now: () => clock.now });
  dataDir = await tempDir('agenda-data-');
  const path = await writeSheet(await tempDir('agenda-sheet-'));
  const imported = await runInProcess(['import', '--json', path], env());
  expect(imported.code, imported.stderr).toBe(0);
  const [one] = JSON.parse(imported.stdout) as Summary[];
  if (one === undefined) throw new Error('no summary');
  summary = one;
  clock.now += (PLANNING_S + 1) * 1000;
  const [first, second] = await orderIds();
  if (first === undefined || second === undefined) throw new Error('no orders');
  // Deterministic whatever the seed: the first visit 10 days on, the second order cancelled.
  await replan(first, {
    status: 'scheduled',
    inspections: [{ date: daysOn(10, '10:30:00'), inspector_name: 'Zoë Brontë' }],
  });
  await replan(second, { status: 'cancelled', cancel_reason: 'Verkocht.' });
  await status();
  const settings = await loadSettings({
    env: {
      ...env(),
      DASHBOARD_PORT: '0',
      DASHBOARD_USER: 'office',
      DASHBOARD_PASSWORD: 'secret',
      INSPECTION_MINUTES: '45',
    },
    cwd: dataDir,
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  running = await startDashboardAlone(settings, pino({ level: 'trace' }, sink));
  base = running.dashboard.url;
  await mkdir(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  // Each undefined when beforeAll failed before making it.
  await (running as RunningDashboardAlone | undefined)?.close();
  await (sandbox as TestSandbox | undefined)?.close();
  await (redis as TestRedis | undefined)?.cleanup();
});

describe('/agenda', () => {
  it('asks for the password, then lists every planned inspection with its address, phone and sheet', async () => {
    expect((await get('/agenda', false)).status).toBe(401);
    const answer = await get('/agenda');
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const rows = html.match(/<tr data-uid="/g) ?? [];
    // Eight orders, one with two products: nine inspections, every one planned in the period.
    expect(rows.length).toBe(ROWS + 1);
    expect(html).toContain('Kortrijksesteenweg 1, 9000 Gent');
    expect(html).toContain('+32 9 123 45 01');
    expect(html).toContain('Zoë Brontë');
    expect(html).toContain(`href="/sheets/${summary.sheetId}"`);
    expect(html).toMatch(/<tr data-uid="[^"]+" data-office="default" class="cancelled">/);
    expect(html).toContain('<del>');
    expect(html).toContain('href="/agenda"');
    expect(html).toMatch(/0 inspections not planned yet|No inspection waits to be planned/);
  });

  it('filters by status, and refuses a date that is not one', async () => {
    const html = await (await get('/agenda?status=cancelled')).text();
    expect((html.match(/<tr data-uid="/g) ?? []).length).toBe(2);
    const csv = await get('/agenda.csv?from=2026-13-01');
    expect(csv.status).toBe(400);
  });
});

describe('/agenda.ics', () => {
  it('is read by ical.js: one event per inspection, stable UIDs, Brussels time, CANCELLED', async () => {
    const answer = await get('/agenda.ics');
    expect(answer.headers.get('content-type')).toMatch(/^text\/calendar/);
    const list = events(await answer.text());
    expect(list.length).toBe(ROWS + 1);
    for (const e of list) expect(e.uid).toMatch(/^\d+-(EPC|ASB-ATT)-1@order-importer$/);
    const [first, second] = await orderIds();
    const moved = list.find((e) => e.uid === `${first}-EPC-1@order-importer`);
    expect(moved?.component.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(
      'Europe/Brussels',
    );
    expect(moved?.startDate.toString()).toBe(daysOn(10, '10:30:00').replace(' ', 'T'));
    expect(moved?.endDate.toString()).toBe(daysOn(10, '11:15:00').replace(' ', 'T'));
    expect(moved?.sequence).toBe(0);
    expect(moved?.description).toContain('Peeters, An; Bert');
    // The product by the API's name for it, then the address.
    expect(moved?.summary).toMatch(/^EPC .+ — Kortrijksesteenweg 1, 9000 Gent$/);
    expect(moved?.location).toBe('Kortrijksesteenweg 1, 9000 Gent');
    const cancelled = list.filter((e) => e.uid.startsWith(`${second}-`));
    expect(cancelled.length).toBe(2);
    for (const e of cancelled)
      expect(e.component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('raises SEQUENCE when the planners move a visit, the UID kept', async () => {
    const [first] = await orderIds();
    if (first === undefined) throw new Error('no order');
    await replan(first, { inspections: [{ date: daysOn(12, '14:00:00') }] });
    await status();
    const list = events(await (await get('/agenda.ics')).text());
    const moved = list.find((e) => e.uid === `${first}-EPC-1@order-importer`);
    expect(moved?.sequence).toBe(1);
    expect(moved?.startDate.toString()).toBe(daysOn(12, '14:00:00').replace(' ', 'T'));
    // Read back again, nothing moved: the same sequence.
    await status();
    const again = events(await (await get('/agenda.ics')).text());
    expect(again.find((e) => e.uid === moved?.uid)?.sequence).toBe(1);
  });
});

describe("the office's calendar feed", () => {
  it('answers only with its key, without a login; anything else is a 404', async () => {
    const key = (
      await readFile(join(dataDir, 'calendar-keys', 'default.key'), 'utf8').catch(() => '')
    ).trim();
    // The key is made the first time /agenda shows the feed to the office's users.
    const page = await (await get('/agenda')).text();
    const shown = /\/agenda\/default\.ics\?key=([A-Za-z0-9_-]+)/.exec(page)?.[1];
    expect(shown).toMatch(/^[A-Za-z0-9_-]{22}$/);
    if (key !== '') expect(shown).toBe(key);
    expect((await get(`/agenda/default.ics?key=${shown}`, false)).status).toBe(200);
    const feed = events(await (await get(`/agenda/default.ics?key=${shown}`, false)).text());
    expect(feed.length).toBe(ROWS + 1);
    for (const path of [
      '/agenda/default.ics?key=wrong',
      '/agenda/default.ics',
      `/agenda/default.ics?key=${shown}x`,
      `/agenda/other.ics?key=${shown}`,
    ])
      expect((await get(path, false)).status, path).toBe(404);
    // The rest of the dashboard still asks for the password.
    expect((await get('/', false)).status).toBe(401);
    expect((await get('/agenda.ics', false)).status).toBe(401);
    expect(logged.join('')).not.toContain(shown);
  });
});

describe('the agenda downloaded', () => {
  it('as CSV: BOM, semicolons, one line per inspection', async () => {
    const text = Buffer.from(await (await get('/agenda.csv')).arrayBuffer()).toString('utf8');
    expect(text.startsWith('\uFEFFdate;time;office;')).toBe(true);
    const lines: Array<Record<string, string>> = parse(text, {
      bom: true,
      columns: true,
      delimiter: ';',
    });
    expect(lines.length).toBe(ROWS + 1);
    expect(lines.find((l) => l.reference === 'AG-1')).toMatchObject({
      contact_name: 'Peeters, An; Bert',
      // A cell a spreadsheet would run (`+…`) is guarded, as in every report.
      contact_phone: "'+32 9 123 45 01",
      address: 'Kortrijksesteenweg 1, 9000 Gent',
      sheet_id: summary.sheetId,
    });
  });

  it('as a workbook exceljs reads back', async () => {
    const bytes = Buffer.from(await (await get('/agenda.xlsx')).arrayBuffer());
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Agenda');
    expect(sheet?.getRow(1).getCell(1).value).toBe('date');
    expect(sheet?.rowCount).toBe(ROWS + 2);
    const refs = Array.from({ length: ROWS + 1 }, (_, i) => sheet?.getRow(i + 2).getCell(11).text);
    expect(refs).toContain('AG-1');
  });
});

describe('/agenda in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    assertChromium();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await (browser as Browser | undefined)?.close();
  });

  it.each([
    [1280, 'agenda-1280.png'],
    [390, 'agenda-390.png'],
  ])(
    'reads at %i px without a horizontal scrollbar',
    async (width, file) => {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        httpCredentials: { username: 'office', password: 'secret' },
      });
      const page = await context.newPage();
      const answer = await page.goto(`${base}/agenda`);
      expect(answer?.status()).toBe(200);
      expect(await page.locator('tr[data-uid]').count()).toBe(ROWS + 1);
      expect(await page.locator('tr.cancelled del').count()).toBeGreaterThan(0);
      expect(
        await page.evaluate<number>('document.documentElement.scrollWidth'),
      ).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });
      await context.close();
    },
    60_000,
  );
});
