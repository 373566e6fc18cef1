/**
 * The dashboard's own offices (docs/design.md "One installation, one namespace"): whatever its
 * sources give, it lists, pages, searches and hands out only the sheets of the offices it is given,
 * and the sheets not taken of those offices only; a sheet of another office is an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';

const counts = { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 };
const OURS = 'aaaaaaaaaaaaaaaa';
const THEIRS = 'bbbbbbbbbbbbbbbb';
let dashboard: RunningDashboard;

async function sheet(sheetId: string, connectionId: string | undefined): Promise<SheetProgress> {
  const reportDir = await tempDir('offices-report-');
  await put(reportDir, 'report.csv', `row;status;reference\r\n1;created;REF-${sheetId}\r\n`);
  await put(reportDir, 'summary.json', '{"total":1}');
  await put(reportDir, 'failed/orders.csv', 'row;error\r\n');
  return {
    sheetId,
    name: `${sheetId}.csv`,
    startedAt: new Date().toISOString(),
    state: 'done',
    total: 1,
    final: 1,
    counts,
    reportDir,
    ...(connectionId !== undefined && { connectionId }),
  };
}

beforeAll(async () => {
  const sheets = [
    await sheet('ours', OURS),
    await sheet('theirs', THEIRS),
    await sheet('old', undefined),
  ];
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    offices: [{ id: OURS, name: 'gent' }],
    overview: () => Promise.resolve(sheets),
    sheet: (id) =>
      Promise.resolve(sheets.map((s) => ({ ...s, warnings: [] })).find((s) => s.sheetId === id)),
    notTaken: () =>
      Promise.resolve([
        {
          path: '/gent/inbox/link.csv',
          reason: 'a link',
          at: '2026-11-26T10:00:00Z',
          connectionId: OURS,
        },
        {
          path: '/brugge/inbox/x.xls',
          reason: 'a workbook',
          at: '2026-11-26T10:00:00Z',
          connectionId: THEIRS,
        },
      ]),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(async () => {
  await dashboard.close();
});

/** A page's status, its body read to its end (a body left unread keeps its connection open). */
async function statusOf(path: string): Promise<number> {
  const answer = await fetch(`${dashboard.url}${path}`);
  await answer.arrayBuffer();
  return answer.status;
}

describe('a dashboard given its offices', () => {
  it('lists, searches and hands out only their sheets', async () => {
    const { imports } = (await (await fetch(`${dashboard.url}/api/imports`)).json()) as {
      imports: SheetProgress[];
    };
    expect(imports.map((s) => s.sheetId)).toEqual(['ours']);
    const page = await (await fetch(`${dashboard.url}/`)).text();
    expect(page).toContain('/gent/inbox/link.csv');
    expect(page).not.toContain('/brugge/inbox/x.xls');
    expect(page).not.toContain('theirs.csv');
    const search = await (await fetch(`${dashboard.url}/search?q=REF`)).text();
    expect(search).toContain('REF-ours');
    expect(search).not.toContain('REF-theirs');
    expect(search).not.toContain('REF-old');
    for (const id of ['theirs', 'old']) {
      for (const path of [
        `/sheets/${id}`,
        `/reports/${id}/report.csv`,
        `/reports/${id}/failed.zip`,
      ])
        expect(await statusOf(path), path).toBe(404);
    }
    for (const path of ['/sheets/ours', '/reports/ours/report.csv', '/reports/ours/failed.zip'])
      expect(await statusOf(path), path).toBe(200);
  });
});
