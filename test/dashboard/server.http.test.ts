import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/pipeline/runtime.js';
import { put, tempDir } from '../helpers/files.js';

const counts = { created: 1, invalid: 0, failed: 0, 'needs-review': 1, duplicate: 0 };
let dashboard: RunningDashboard;
const auth = { authorization: `Basic ${btoa('an:s3cret')}` };

beforeAll(async () => {
  const reportDir = await tempDir('dashboard-report-');
  await put(reportDir, 'report.csv', 'row;status\r\n1;created\r\n');
  await put(reportDir, 'needs-review.csv', 'row;what_to_check\r\n2;look\r\n');
  await put(reportDir, 'summary.json', '{"total":2}');
  await put(reportDir, 'notes.txt', 'not handed out');
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
    },
    {
      sheetId: 's2',
      name: 'running.csv',
      startedAt: new Date().toISOString(),
      state: 'processing',
      final: 0,
      counts,
    },
  ];
  dashboard = await startDashboard({
    host: '0.0.0.0',
    port: 0,
    user: 'an',
    password: 's3cret',
    overview: () => Promise.resolve(sheets),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(() => dashboard.close());

const get = (path: string, headers: Record<string, string> = auth) =>
  fetch(`${dashboard.url.replace('0.0.0.0', '127.0.0.1')}${path}`, { headers });

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

  it('asks for the password everywhere but /healthz, which supervisors probe without one', async () => {
    expect((await get('/reports/s1/report.csv', {})).status).toBe(401);
    expect((await get('/api/imports', {})).status).toBe(401);
    const health = await get('/healthz', {});
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ redis: true, api: null });
    expect((await get('/healthz?probe=1', {})).status).toBe(200);
  });
});
