/**
 * The fix loop through the real pipeline and the real dashboard over HTTP: a sheet with invalid
 * rows imported, its failed/ sheet fixed and imported again, then both sheets' pages and the
 * overview read as a person reads them; and forged fixes that link nothing and lose no row.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assembleImporter } from '../../src/app/importer.js';
import { connectionOf } from '../../src/connections/connection.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { submitSheet } from '../../src/intake/submit.js';
import { type SheetProgress, recentProgress, sheetDetail } from '../../src/store/progress.js';
import { put, tempDir } from '../helpers/files.js';
import {
  type TestPipeline,
  testPipeline,
  testPipelineConfig,
  waitForReport,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const GENT = { token: 'gent-office-token', org: 'gent' };
const BRUGGE = { token: 'brugge-office-token', org: 'brugge' };

let t: TestPipeline;
let brugge: Awaited<ReturnType<typeof assembleImporter>>;
let dispatcher: Agent;
let dashboard: RunningDashboard;
let original: SheetProgress;
let fix: SheetProgress;
let failedCsv: string;

/** The original's failed/ sheet with its rows 2 and 3 mended, row 4 left as it was. */
function mended(csv: string): string {
  const [header = '', ...rows] = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const city = header.split(';').indexOf('city');
  const fixedRows = rows.map((line) => {
    const cells = line.split(';');
    if (cells[city] === '' && !line.startsWith('R-4;')) cells[city] = 'Gent';
    return cells.join(';');
  });
  return `${[header, ...fixedRows].join('\r\n')}\r\n`;
}

async function page(path: string): Promise<string> {
  const answer = await fetch(`${dashboard.url}${path}`, { headers: { 'accept-language': 'en' } });
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The overview's line of one sheet. */
function lineOf(html: string, sheetId: string): string {
  const at = html.indexOf(`<tr data-sheet-id="${sheetId}"`);
  expect(at).toBeGreaterThanOrEqual(0);
  return html.slice(at, html.indexOf('</tr>', at));
}

beforeAll(async () => {
  t = await testPipeline({ sandbox: { tokens: [GENT, BRUGGE] }, token: GENT.token });
  // Another office on the same Redis: its sheets must not fix Ghent's.
  dispatcher = new Agent();
  const reportsDir = join(await tempDir('brugge-'), 'reports');
  const base = await testPipelineConfig({
    redis: t.redis,
    sandbox: t.sandbox,
    reportsDir,
    dispatcher,
    token: BRUGGE.token,
  });
  brugge = await assembleImporter({
    ...base,
    connection: connectionOf({
      apiBaseUrl: t.sandbox.url,
      token: BRUGGE.token,
      name: 'brugge',
      sandbox: true,
    }),
    announce: () => undefined,
    workers: true,
  });
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    overview: () => recentProgress(t.ctx.store),
    sheet: (sheetId) => sheetDetail(t.ctx.store, sheetId),
    results: t.ctx.store,
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: pino({ level: 'silent' }),
  });

  const dir = await tempDir('fix-loop-');
  const sheet = await writeCsvSheet(dir, 'orders.csv', [
    sheetRow(1),
    sheetRow(2, { city: '' }),
    sheetRow(3, { city: '' }),
    sheetRow(4, { city: '' }),
  ]);
  original = await t.importSheet(sheet);
  failedCsv = await readFile(join(original.reportDir ?? '', 'failed', 'orders.csv'), 'utf8');
  // Fixed by the user and dropped back under the same name.
  const again = await put(await tempDir('fix-loop-back-'), 'orders.csv', mended(failedCsv));
  fix = await t.importSheet(again);
}, 60_000);

afterAll(async () => {
  await dashboard.close();
  await brugge.close({ graceMs: 2000 });
  await dispatcher.close();
  await t.close();
});

describe('a failed/ sheet fixed and dropped back', () => {
  it("carries the original's id beside each row's number", () => {
    const [header, ...rows] = failedCsv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header?.split(';').slice(-4)).toEqual([
      'order_id',
      'source_row',
      'error',
      'source_sheet',
    ]);
    expect(rows.map((r) => r.split(';').at(-1))).toEqual([
      original.sheetId,
      original.sheetId,
      original.sheetId,
    ]);
    expect(original.counts).toMatchObject({ created: 1, invalid: 3 });
    expect(fix.counts).toMatchObject({ created: 2, invalid: 1 });
  });

  it('is read without a word about the columns failed/ added', async () => {
    const detail = await sheetDetail(t.ctx.store, fix.sheetId);
    expect(detail?.warnings.join(' ')).not.toMatch(/source_sheet|source_row/);
  });

  it('is linked to the original on its page', async () => {
    const html = await page(`/sheets/${fix.sheetId}`);
    expect(html).toMatch(
      new RegExp(`id="fixes"[^]*?<a href="/sheets/${original.sheetId}"[^>]*>orders\\.csv`),
    );
  });

  it("makes the original's page say how many rows were fixed later, where, and what is still open", async () => {
    const html = await page(`/sheets/${original.sheetId}`);
    expect(html).toMatch(
      new RegExp(`id="fixed-later"[^]*?2 rows fixed later[^]*?<a href="/sheets/${fix.sheetId}"`),
    );
    expect(html).toMatch(/id="open-problems">1</);
    const rows = await page(`/sheets/${original.sheetId}?status=invalid`);
    const marked = [...rows.matchAll(/<tr id="row-(\d+)"[^>]*data-fixed-by="([^"]+)"/g)];
    expect(marked.map((m) => [m[1], m[2]])).toEqual([
      ['2', fix.sheetId],
      ['3', fix.sheetId],
    ]);
    expect(rows).toContain('fixed later in');
  });

  it("makes the original's overview line say so, its open problems down by the rows fixed", async () => {
    const html = await page('/');
    const line = lineOf(html, original.sheetId);
    expect(line).toMatch(new RegExp(`2 rows fixed later[^]*?<a href="/sheets/${fix.sheetId}"`));
    expect(line).toMatch(/<td class="n bad" data-status="invalid">1</);
    // Two sheets named orders.csv: each line tells its own by its short id.
    expect(line).toContain(original.sheetId.slice(-6));
    expect(lineOf(html, fix.sheetId)).toContain(fix.sheetId.slice(-6));
  });
});

describe('a forged fix', () => {
  let next = 50;
  async function forged(source: string, rows: Array<[row: string, city: string]>) {
    const header = `${failedCsv.replace(/^\uFEFF/, '').split('\r\n')[0]}`;
    const columns = header.split(';');
    const lines = rows.map(([row, city]) => {
      next += 1;
      const cells = columns.map((c) => sheetRow(next, { city })[c as 'city'] ?? '');
      cells[columns.indexOf('source_row')] = row;
      cells[columns.indexOf('source_sheet')] = source;
      return cells.join(';');
    });
    return put(await tempDir('forged-'), 'orders.csv', `${[header, ...lines].join('\r\n')}\r\n`);
  }

  it('naming an unknown sheet or a row that was no problem links nothing and loses no row', async () => {
    const before = await sheetDetail(t.ctx.store, original.sheetId);
    const unknown = await t.importSheet(
      await forged('20990101-000000-abcdef', [
        ['4', 'Gent'],
        ['4', ''],
      ]),
    );
    expect(unknown.counts).toMatchObject({ created: 1, invalid: 1 });
    const wasCreated = await t.importSheet(await forged(original.sheetId, [['1', 'Gent']]));
    expect(wasCreated.counts).toMatchObject({ created: 1 });
    expect(await sheetDetail(t.ctx.store, original.sheetId)).toEqual(before);
    for (const sheet of [unknown, wasCreated]) {
      expect(await page(`/sheets/${sheet.sheetId}`)).not.toContain('id="fixes"');
    }
  });

  it("of another office's sheet links nothing and loses no row", async () => {
    const before = await sheetDetail(t.ctx.store, original.sheetId);
    const { sheetId } = await submitSheet(
      brugge.ctx,
      await forged(original.sheetId, [['4', 'Brugge']]),
    );
    const theirs = await waitForReport(brugge.ctx, sheetId);
    expect(theirs.counts).toMatchObject({ created: 1 });
    expect(await sheetDetail(t.ctx.store, original.sheetId)).toEqual(before);
    expect((await t.ctx.store.fixes.of(sheetId)).fixes).toBeUndefined();
  });
});

describe('a fix of a sheet whose report.csv was spoilt on disk', () => {
  it('is reported with all its rows, and links nothing', async () => {
    const dir = await tempDir('fix-loop-spoilt-');
    const sheet = await writeCsvSheet(dir, 'spoilt.csv', [
      sheetRow(80),
      sheetRow(81, { city: '' }),
    ]);
    const spoilt = await t.importSheet(sheet);
    const failed = await readFile(join(spoilt.reportDir ?? '', 'failed', 'spoilt.csv'), 'utf8');
    await writeFile(join(spoilt.reportDir ?? '', 'report.csv'), 'row;status\r\n"1;created\r\n');
    const again = await put(await tempDir('fix-loop-spoilt-back-'), 'spoilt.csv', mended(failed));
    const fixed = await t.importSheet(again);
    expect(fixed.counts).toMatchObject({ created: 1 });
    expect(fixed.fixes).toBeUndefined();
    expect((await sheetDetail(t.ctx.store, spoilt.sheetId))?.fixedLater).toBeUndefined();
  });
});
