import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import type { SheetProgress } from '../../src/pipeline/runtime.js';
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
  const sheets = [reported('plain', plain), reported('linked', join(linked, 'report'))];
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
