import { request } from 'node:http';
import { connect } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';

const counts = { created: 1, invalid: 0, failed: 0, 'needs-review': 1, duplicate: 0 };
let dashboard: RunningDashboard;
const metrics = new Metrics({ defaultMetrics: false });
metrics.rowsFinal('office "A"', ['created']);
const notTaken = [
  {
    path: 'agency/<img src=x onerror=alert(1)>.csv',
    reason: 'it is a symbolic link & "links are not followed"',
    at: '2025-03-04T10:20:30.000Z',
  },
  {
    path: 'old.xlsx',
    reason: 'a workbook: save it as CSV (UTF-8)',
    at: '2025-03-04T09:00:00.000Z',
  },
];
/** The same sheets on loopback, without a password: where the Host check is all there is. */
let local: RunningDashboard;
const auth = { authorization: `Basic ${btoa('an:s3cret')}` };

beforeAll(async () => {
  const reportDir = await tempDir('dashboard-report-');
  await put(reportDir, 'report.csv', 'row;status\r\n1;created\r\n');
  await put(reportDir, 'needs-review.csv', 'row;what_to_check\r\n2;look\r\n');
  await put(reportDir, 'summary.json', '{"total":2}');
  await put(reportDir, 'notes.txt', 'not handed out');
  await put(reportDir, 'failed/orders.csv', 'row;error\r\n');
  const sheets: SheetProgress[] = [
    {
      sheetId: 's1',
      name: 'orders.csv',
      startedAt: new Date().toISOString(),
      state: 'done',
      total: 2,
      final: 2,
      counts,
      reportDir,
      apiHost: 'api.example.be',
      sandbox: false,
    },
    {
      sheetId: 's2',
      name: 'running.csv',
      startedAt: new Date().toISOString(),
      state: 'processing',
      final: 0,
      counts,
      apiHost: '127.0.0.1:4010',
      sandbox: true,
    },
  ];
  dashboard = await startDashboard({
    host: '0.0.0.0',
    port: 0,
    user: 'an',
    password: 's3cret',
    overview: () => Promise.resolve(sheets),
    health: () => Promise.resolve({ redis: true, api: null }),
    metrics,
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
  // On loopback but reached as dash.example.com (a proxy serves it to other machines): with a login.
  local = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    hosts: ['dash.example.com'],
    user: 'local',
    password: 'local-password',
    overview: () => Promise.resolve(sheets),
    notTaken: () => Promise.resolve(notTaken),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(async () => {
  await dashboard.close();
  await local.close();
});

/** The local dashboard's login. */
const LOCAL_LOGIN = {
  authorization: `Basic ${Buffer.from('local:local-password').toString('base64')}`,
};

/** A GET of the local dashboard, logged in, with the Host header given. */
function getLocal(path: string, host: string, headers: Record<string, string> = {}) {
  return getAs(local.url, path, host, { ...LOCAL_LOGIN, ...headers });
}

/** A GET with the Host header given (fetch decides it itself). */
function getAs(
  base: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('latin1'),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const get = (path: string, headers: Record<string, string> = auth) =>
  fetch(`${dashboard.url.replace('localhost', '127.0.0.1')}${path}`, { headers });

describe('the dashboard server', () => {
  it.each([
    ['report.csv', 'text/csv; charset=utf-8', '1;created'],
    ['needs-review.csv', 'text/csv; charset=utf-8', '2;look'],
    ['summary.json', 'application/json; charset=utf-8', '"total":2'],
  ])('hands out %s of a reported sheet', async (file, type, content) => {
    const answer = await get(`/reports/s1/${file}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename=".*-s1\./);
    expect(await answer.text()).toContain(content);
  });

  it.each([
    ['/reports/s1/notes.txt', 'a file that is not a report file'],
    ['/reports/s1/..%2F..%2Fetc%2Fpasswd', 'a path out of the folder'],
    ['/reports/s2/report.csv', 'a sheet not reported yet'],
    ['/reports/nope/report.csv', 'a sheet it does not know'],
  ])('answers 404 for %s (%s)', async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  it('asks for the password everywhere but /healthz and /readyz, which supervisors probe without one', async () => {
    expect((await get('/reports/s1/report.csv', {})).status).toBe(401);
    expect((await get('/api/imports', {})).status).toBe(401);
    const health = await get('/healthz', {});
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', reasons: [], redis: true, api: null });
    expect((await get('/healthz?probe=1', {})).status).toBe(200);
    const ready = await get('/readyz', {});
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', reasons: [] });
  });

  it('serves /metrics off loopback only with the password, its label values escaped', async () => {
    expect((await get('/metrics', {})).status).toBe(401);
    expect((await get('/metrics?x=1', {})).status).toBe(401);
    const scraped = await get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await scraped.text()).toContain(
      'order_importer_rows_total{connection="office \\"A\\"",status="created"} 1',
    );
  });
});

describe('the host names the dashboard answers', () => {
  const paths = [
    '/',
    '/api/imports',
    '/queues',
    '/queues/api/queues',
    '/reports/s1/report.csv',
    '/reports/s1/failed.zip',
    '/healthz',
  ];

  it.each(paths)(
    'refuses %s under a foreign host name, as a rebound DNS name would ask',
    async (path) => {
      const port = new URL(local.url).port;
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `localhost.evil.example:${port}`,
      ]) {
        const answer = await getLocal(path, host);
        expect(answer.status, host).toBe(421);
        expect(answer.type).toMatch(/^text\/plain/);
        expect(answer.body).toMatch(/DASHBOARD_HOSTS/);
        expect(answer.body).not.toMatch(/row;|PK|created|redis/);
      }
    },
  );

  it('refuses a foreign host name before asking for the password', async () => {
    const answer = await getAs(
      dashboard.url.replace('localhost', '127.0.0.1'),
      '/',
      'evil.example',
    );
    expect(answer.status).toBe(421);
  });

  it('refuses a request without a Host header', async () => {
    const { port } = new URL(local.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('GET / HTTP/1.0\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => {
        resolve(text);
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 421 /);
  });

  it('answers the loopback names, its own address and DASHBOARD_HOSTS, on every route', async () => {
    const port = new URL(local.url).port;
    const hosts = [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'dash.example.com',
      `DASH.example.com:${port}`,
    ];
    for (const host of hosts) {
      for (const path of paths) {
        expect((await getLocal(path, host)).status, `${host} ${path}`).toBe(200);
      }
    }
    const zip = await getLocal('/reports/s1/failed.zip', 'localhost');
    expect(zip.body.slice(0, 2)).toBe('PK');
  });

  it('answers a supervisor probing /healthz by the loopback address', async () => {
    const { port } = new URL(local.url);
    const answer = await getLocal('/healthz', `127.0.0.1:${port}`);
    expect(answer.status).toBe(200);
  });
});

describe('the overview page', () => {
  it('lists the sheets not taken, with why and when, every text escaped', async () => {
    const page = await getLocal('/', 'localhost');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Sheets not taken');
    expect(page.body).toContain('agency/&lt;img src=x onerror=alert(1)&gt;.csv');
    expect(page.body).toContain('it is a symbolic link &amp; &quot;links are not followed&quot;');
    expect(page.body).toContain('2025-03-04T10:20:30.000Z');
    expect(page.body).toContain('old.xlsx');
    expect(page.body).not.toContain('<img');
  });

  it('has no such section when nothing was left, or when it cannot know', async () => {
    const page = await getAs(
      dashboard.url.replace('localhost', '127.0.0.1'),
      '/',
      'localhost',
      auth,
    );
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('Sheets not taken');
    const empty = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      overview: () => Promise.resolve([]),
      notTaken: () => Promise.resolve([]),
      health: () => Promise.resolve({ redis: true, api: null }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const answer = await getAs(empty.url, '/', 'localhost');
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain('Sheets not taken');
    } finally {
      await empty.close();
    }
  });

  it('still shows the page when the sheets not taken cannot be read, and says so', async () => {
    const broken = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      overview: () => Promise.resolve([]),
      notTaken: () => Promise.reject(new Error('Redis <gone>')),
      health: () => Promise.resolve({ redis: false, api: null }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const answer = await getAs(broken.url, '/', 'localhost');
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('The sheets not taken cannot be read now: Redis &lt;gone&gt;');
    } finally {
      await broken.close();
    }
  });

  it('gives each sheet its API host and whether it went to the sandbox', async () => {
    const answer = await getLocal('/api/imports', 'localhost');
    const { imports } = JSON.parse(answer.body) as { imports: SheetProgress[] };
    expect(imports.map((s) => [s.sheetId, s.apiHost, s.sandbox])).toEqual([
      ['s1', 'api.example.be', false],
      ['s2', '127.0.0.1:4010', true],
    ]);
  });
});
