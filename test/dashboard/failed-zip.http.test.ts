import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';
import { type Outside, outsideFiles } from '../helpers/outside.js';
import { unzip } from '../helpers/zip.js';

let dashboard: RunningDashboard;
let outside: Outside;

function reported(sheetId: string, reportDir: string): SheetProgress {
  const counts = { created: 0, invalid: 1, failed: 0, 'needs-review': 0, duplicate: 0 };
  return {
    sheetId,
    name: 'orders.csv',
    startedAt: new Date().toISOString(),
    state: 'done',
    total: 1,
    final: 1,
    counts,
    reportDir,
  };
}

beforeAll(async () => {
  outside = await outsideFiles();
  // A bundle holding real files, and links to a file and to a folder outside it.
  const plain = await tempDir('zip-plain-');
  await put(plain, 'failed/orders.csv', 'reference;files\r\nR-1;docs/plan.pdf\r\n');
  await put(plain, 'failed/docs/plan.pdf', '%PDF plan');
  await symlink(outside.file, join(plain, 'failed', 'docs', 'passwd.pdf'));
  await symlink(outside.folder, join(plain, 'failed', 'linkdir'));
  // A report whose failed/ itself is a link to a folder outside.
  const linked = await tempDir('zip-linked-');
  await mkdir(join(linked, 'report'));
  await symlink(outside.dir, join(linked, 'report', 'failed'));
  // A report whose files are links to outside files; one whose whole folder is a link.
  const swapped = await tempDir('report-links-');
  await symlink(outside.file, join(swapped, 'report.csv'));
  await symlink(outside.file, join(swapped, 'summary.json'));
  const real = await tempDir('report-real-');
  await put(real, 'report.csv', 'row;status\r\n1;created\r\n');
  const linkedDir = join(await tempDir('report-linked-dir-'), 'report');
  await symlink(real, linkedDir);
  const sheets = [
    reported('plain', plain),
    reported('linked', join(linked, 'report')),
    reported('swapped', swapped),
    reported('linked-dir', linkedDir),
    reported('real', real),
  ];
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => Promise.resolve(sheets),
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(() => dashboard.close());

async function zipOf(sheetId: string): Promise<{ status: number; entries: Map<string, Buffer> }> {
  const answer = await fetch(`${dashboard.url}/reports/${sheetId}/failed.zip`);
  const body = Buffer.from(await answer.arrayBuffer());
  return { status: answer.status, entries: answer.ok ? unzip(body) : new Map<string, Buffer>() };
}

describe("the dashboard's zip of a failed/ bundle", () => {
  it('holds the real files and nothing reached through a link', async () => {
    const { status, entries } = await zipOf('plain');
    expect(status).toBe(200);
    expect([...entries.keys()].sort()).toEqual(['failed/docs/plan.pdf', 'failed/orders.csv']);
    expect(entries.get('failed/docs/plan.pdf')?.toString()).toBe('%PDF plan');
  });

  it('holds nothing from a failed/ folder that is itself a link', async () => {
    const { entries } = await zipOf('linked');
    expect([...entries.keys()]).toEqual([]);
    for (const data of entries.values()) expect(data.toString()).not.toContain(outside.marker);
  });
});

describe("the dashboard's report files", () => {
  it.each([
    ['swapped', 'report.csv'],
    ['swapped', 'summary.json'],
    ['linked-dir', 'report.csv'],
  ])('are never read through a link (%s/%s)', async (sheetId, file) => {
    const answer = await fetch(`${dashboard.url}/reports/${sheetId}/${file}`);
    const text = await answer.text();
    expect(answer.status).toBe(404);
    expect(text).not.toContain(outside.marker);
  });

  it('are handed out when they are plain files', async () => {
    const answer = await fetch(`${dashboard.url}/reports/real/report.csv`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('row;status\r\n1;created\r\n');
  });
});
