/**
 * The dashboard in the reader's language, over real HTTP: which language a request gets
 * (`?lang=`, the switch's cookie, Accept-Language, the process's setting), how it says so, the
 * cookie the switch sets, and a pseudo-language run of the overview and a sheet's page that finds
 * no text a person reads outside the catalogue.
 */
import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import type { Speech } from '../../src/language/languages.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put } from '../helpers/files.js';
import { unmarked } from '../helpers/pseudo.js';
import { reportOf, sheetOf } from '../helpers/reports.js';

const STATUS_HEADER =
  'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at';
/** What the pages show of the sheets' own data and the API's: verbatim, never translated. */
const DATA = [
  'north.csv',
  'running.csv',
  // The sheets' ids, shown short beside their names.
  'north',
  'running',
  'api.example.be',
  'gent',
  'report.csv',
  'summary.json',
  'scheduled',
  'EPC',
  'Jan Peeters',
  'old.xlsx',
  'a workbook: save it as CSV',
  'city: city is required; fix it, then drop it back',
  'Kerkstraat 1, 9000 Gent',
  'An Peeters',
  '+32 9 000 00 00',
  'R-7',
  'cancelled',
];

/** The agenda's inspections: one planned, one cancelled, one not planned yet. */
const AGENDA = (['2025-03-10 09:30:00', '2025-03-11 14:00:00', ''] as const).map((date, i) => ({
  uid: `100${i}-EPC-1`,
  office: 'gent',
  sheetId: 'north',
  sheetName: 'north.csv',
  row: 1,
  reference: 'R-7',
  orderId: 1000 + i,
  productId: 'EPC',
  productName: 'EPC',
  date,
  inspector: 'Jan Peeters',
  status: i === 1 ? 'cancelled' : 'scheduled',
  ...(i === 1 && { cancelledAt: '2025-03-03T10:00:00.000Z' }),
  address: 'Kerkstraat 1, 9000 Gent',
  contact: 'An Peeters',
  phone: '+32 9 000 00 00',
  sequence: 0,
  checkedAt: '2025-03-04T10:00:00.000Z',
}));

let sheets: SheetProgress[];
const running: RunningDashboard[] = [];

beforeAll(async () => {
  const north = await reportOf(3);
  await put(
    north,
    'status.csv',
    `\uFEFF${STATUS_HEADER}\r\n1;REF-1;1001;scheduled;;1;EPC;2099-12-01 14:30:00;Jan Peeters;2026-11-26T09:15:00.000Z\r\n`,
  );
  sheets = [
    { ...sheetOf(north, 3, 'north'), apiHost: 'api.example.be', connection: 'gent' },
    {
      sheetId: 'running',
      name: 'running.csv',
      startedAt: '2025-03-04T10:00:00.000Z',
      state: 'processing',
      total: 4,
      final: 1,
      counts: { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
      apiHost: 'api.example.be',
      sandbox: true,
    },
  ];
});

afterAll(async () => {
  for (const dashboard of running) await dashboard.close();
});

async function dashboardIn(
  language: Speech | undefined,
  credentials: { user?: string; password?: string } = {},
): Promise<string> {
  const dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    ...credentials,
    ...(language !== undefined && { language }),
    overview: () => Promise.resolve(sheets),
    notTaken: () =>
      Promise.resolve([
        { path: 'old.xlsx', reason: 'a workbook: save it as CSV', at: '2025-03-04T09:00:00.000Z' },
      ]),
    clock: () => new Date('2025-03-04T10:21:00.000Z'),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
    agenda: {
      entries: () => Promise.resolve(AGENDA),
      feedKey: () => Promise.resolve(undefined),
      minutes: 60,
      statusDays: 90,
    },
  });
  running.push(dashboard);
  return dashboard.url;
}

async function page(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  lang: string;
  content: string;
  cookie: string;
  body: string;
  vary: string;
}> {
  const answer = await fetch(`${base}${path}`, { headers });
  const body = await answer.text();
  return {
    status: answer.status,
    lang: /<html lang="([^"]*)"/.exec(body)?.[1] ?? '',
    content: answer.headers.get('content-language') ?? '',
    cookie: answer.headers.get('set-cookie') ?? '',
    body,
    vary: answer.headers.get('vary') ?? '',
  };
}

describe('the language of a page', () => {
  it('is the setting without anything else, and says so in <html lang> and Content-Language', async () => {
    const base = await dashboardIn('fr');
    for (const path of ['/', '/sheets/north', '/search?q=x', '/sheets/nope']) {
      const answer = await page(base, path);
      expect([answer.lang, answer.content], path).toEqual(['fr', 'fr']);
    }
    expect((await page(base, '/')).body).toContain('<h1>Listes importées</h1>');
    const english = await page(await dashboardIn(undefined), '/');
    expect([english.lang, english.content]).toEqual(['en', 'en']);
    expect(english.body).toContain('<h1>Imports</h1>');
  });

  it('follows Accept-Language over the setting, then the cookie, then ?lang=', async () => {
    const base = await dashboardIn('fr');
    const accept = { 'accept-language': 'de-DE,nl-BE;q=0.8,fr;q=0.5' };
    expect((await page(base, '/', accept)).lang).toBe('nl');
    const cookie = { ...accept, cookie: 'theme=dark; lang=en' };
    expect((await page(base, '/sheets/north', cookie)).lang).toBe('en');
    const asked = await page(base, '/sheets/north?lang=nl', { ...cookie });
    expect([asked.lang, asked.content]).toEqual(['nl', 'nl']);
    expect(asked.vary).toMatch(/Accept-Language/i);
    expect(asked.vary).toMatch(/Cookie/i);
  });

  it('keeps ?lang= in a cookie for the whole dashboard, safe, and only nl, fr or en', async () => {
    const base = await dashboardIn('en');
    const asked = await page(base, '/?lang=fr');
    expect(asked.cookie).toMatch(/^lang=fr;/);
    expect(asked.cookie).toMatch(/; Path=\/(;|$)/);
    expect(asked.cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(asked.cookie).toMatch(/; HttpOnly(;|$)/);
    // The cookie is what the next pages are told in.
    expect((await page(base, '/search', { cookie: 'lang=fr' })).lang).toBe('fr');
    for (const bad of ['qps', 'NL', 'de', '"><script>alert(1)</script>', 'nl;domain=evil']) {
      const answer = await page(base, `/?lang=${encodeURIComponent(bad)}`);
      expect([answer.status, answer.lang, answer.cookie], bad).toEqual([200, 'en', '']);
      expect(answer.body).not.toContain('<script>alert');
    }
    expect((await page(base, '/', { cookie: 'lang=qps' })).lang).toBe('en');
    expect((await page(base, '/', { cookie: 'lang=<b>' })).lang).toBe('en');
  });

  it('offers a switch on every page that keeps the page and its query', async () => {
    const base = await dashboardIn('en');
    const sheet = await page(base, '/sheets/north?status=invalid&lang=nl');
    const links = [...sheet.body.matchAll(/<nav class="languages"[^>]*>(.*?)<\/nav>/g)];
    expect(links).toHaveLength(1);
    expect(links[0]?.[1]).toBe(
      '<a href="/sheets/north?status=invalid&amp;lang=nl" hreflang="nl" lang="nl" aria-current="true">Nederlands</a>' +
        '<a href="/sheets/north?status=invalid&amp;lang=fr" hreflang="fr" lang="fr">Français</a>' +
        '<a href="/sheets/north?status=invalid&amp;lang=en" hreflang="en" lang="en">English</a>',
    );
    for (const path of ['/', '/search?q=x', '/sheets/nope', '/sheets/north?page=0']) {
      expect((await page(base, path)).body, path).toContain('<nav class="languages"');
    }
  });

  it('asks for the password in the reader’s language', async () => {
    const base = await dashboardIn('en', { user: 'an', password: 's3cret' });
    const refused = await page(base, '/', { 'accept-language': 'fr-BE' });
    expect(refused.status).toBe(401);
    expect([refused.lang, refused.content]).toEqual(['fr', 'fr']);
    expect(refused.body).toContain('Se connecter');
    const auth = { authorization: `Basic ${btoa('an:s3cret')}` };
    expect((await page(base, '/?lang=nl', auth)).lang).toBe('nl');
  });

  it('writes dates and numbers as the language does', async () => {
    const base = await dashboardIn('nl');
    const overview = await page(base, '/');
    expect(overview.body).toContain('2 lijsten, bijgewerkt: <time');
    expect(overview.body).toContain('>4 mrt 2025, 11:21</time>');
    const sheet = await page(base, '/sheets/north');
    expect(sheet.body).toContain('<span class="next-inspection">1 dec 2099, 14:30</span>');
    expect(sheet.body).toContain('Rijen 1–3 van 3.');
  });
});

/** An answer to `method` on `path` with these headers (Host among them), over node:http. */
function ask(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; content: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'] ?? '',
          content: res.headers['content-language'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('what the dashboard refuses, in the reader’s language', () => {
  it('a foreign host name (421) and a write (405): plain text, in Dutch and French', async () => {
    const base = await dashboardIn('en');
    const foreign = await ask(base, 'GET', '/', {
      host: 'evil.example',
      'accept-language': 'nl-BE',
    });
    expect([foreign.status, foreign.content]).toEqual([421, 'nl']);
    expect(foreign.type).toMatch(/^text\/plain/);
    expect(foreign.body).toBe(
      'Dit dashboard antwoordt niet op de hostnaam "evil.example". Is dat de naam van deze computer, voeg hem dan toe aan DASHBOARD_HOSTS (gescheiden door komma’s), of open het dashboard op http://localhost.\n',
    );
    const english = await ask(base, 'GET', '/', { host: 'evil.example' });
    expect(english.body).toBe(
      'This dashboard does not answer to the host name "evil.example". If that name is this machine\'s, add it to DASHBOARD_HOSTS (comma-separated), or open the dashboard at http://localhost.\n',
    );
    const written = await ask(base, 'POST', '/', {
      host: 'localhost',
      'accept-language': 'fr-BE',
    });
    expect([written.status, written.content]).toEqual([405, 'fr']);
    expect(written.type).toMatch(/^text\/plain/);
    expect(written.body).toMatch(/^Le tableau de bord ne fait qu’afficher les importations/);
    const writtenEn = await ask(base, 'DELETE', '/', { host: 'localhost' });
    expect(writtenEn.body).toBe(
      'The dashboard only shows the imports: it does not add, retry, change or remove jobs or queues.\n',
    );
  });

  it.each(['/reports/running/report.csv', '/reports/running/failed.zip', '/assets/nope.css'])(
    '%s, not there: a page in the reader’s language',
    async (path) => {
      const base = await dashboardIn('en');
      const answer = await page(base, path, { 'accept-language': 'nl-BE' });
      expect([answer.status, answer.lang, answer.content]).toEqual([404, 'nl', 'nl']);
      expect(answer.body).toContain('<nav class="languages"');
      expect(answer.body).not.toMatch(/"message"|No such file|for this sheet|has no failed/);
    },
  );
});

/** What a person reads of a page: its text, without markup, script or style. */
function visibleText(html: string): string {
  return html
    .replace(/<head>.*?<\/head>/s, ' ')
    .replace(/<(script|style)\b.*?<\/\1>/gs, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
      e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
    );
}

/** The text left once every ⟦…⟧ and every known data value is taken out. */
function leftOver(text: string): string {
  let left = unmarked(text, ' ');
  for (const value of DATA) left = left.replaceAll(value, ' ');
  // Dates as Words writes them (en-GB for the pseudo-language; the agenda's with their weekday),
  // and the sheets' own ids.
  left = left.replace(/([A-Z][a-z]{2}, )?\d{1,2} [A-Z][a-z]{2,3} \d{4}(, \d{2}:\d{2})?/g, ' ');
  left = left.replace(/\b(REF|Contact)[- ]\d+\b|Kerkstraat \d+, 9000 Gent/g, ' ');
  return left.replace(/[\s\p{N}\p{P}\p{S}]+/gu, ' ').trim();
}

describe('the pseudo-language', () => {
  it.each([
    '/',
    '/sheets/north',
    '/sheets/running',
    '/search?q=REF',
    '/sheets/nope',
    '/reports/running/report.csv',
    '/reports/running/failed.zip',
    '/agenda',
  ])('%s: no text a person reads is outside the catalogue', async (path) => {
    const base = await dashboardIn('qps');
    const answer = await page(base, path);
    expect(answer.body).toContain('⟦');
    expect(leftOver(visibleText(answer.body))).toBe('');
    expect(/<title>(.*?)<\/title>/.exec(answer.body)?.[1]).toMatch(/^⟦.*⟧$/);
    const attributes = [
      ...answer.body.matchAll(/ (aria-label|placeholder|title|data-unreachable)="([^"]*)"/g),
    ];
    expect(attributes.length).toBeGreaterThan(0);
    for (const [, name, value] of attributes) expect(value, name).toMatch(/^⟦.*⟧$/);
  });
});

describe('the pseudo-language of what the dashboard refuses', () => {
  it('leaves no text outside the catalogue in the 421 and 405 answers', async () => {
    const base = await dashboardIn('qps');
    const foreign = await ask(base, 'GET', '/', { host: 'evil.example' });
    const written = await ask(base, 'POST', '/', { host: 'localhost' });
    for (const answer of [foreign, written]) {
      expect(answer.body).toContain('⟦');
      const rest = leftOver(answer.body.replaceAll('DASHBOARD_HOSTS', ' '));
      expect(rest).toBe('');
    }
  });
});
