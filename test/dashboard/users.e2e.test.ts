/**
 * The dashboard's users in a real browser (Chromium, sending the login as a person's browser
 * does after its box): a user of one office sees and follows only that office's sheets, and is
 * shown "not found" for the other's sheet and for /queues; a `*` user sees both and bull-board.
 * The sheets are imported for real, through the pipeline and the sandbox.
 */
import { join } from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../src/dashboard/password.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { putUser, readUsersFile } from '../../src/dashboard/users.js';
import { createLogger } from '../../src/logger.js';
import { recentProgress, type SheetDetail, sheetDetail } from '../../src/store/progress.js';
import { assertChromium, launchChromium } from '../helpers/browser.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let pipelines: TestPipeline[] = [];
let dashboard: RunningDashboard | undefined;
let browser: Browser | undefined;
const sheets: Record<string, string> = {};

beforeAll(async () => {
  assertChromium();
  pipelines = await Promise.all(
    ['gent', 'antwerpen'].map((office) => testPipeline({ connectionName: office })),
  );
  for (const [i, office] of ['gent', 'antwerpen'].entries()) {
    const dir = await tempDir(`${office}-`);
    const path = await writeCsvSheet(dir, `${office}.csv`, [
      sheetRow(1, { reference: `${office.toUpperCase()}-1` }),
      sheetRow(2, { city: '' }),
    ]);
    sheets[office] = (await (pipelines[i] as TestPipeline).importSheet(path)).sheetId;
  }
  const file = join(await tempDir('users-'), 'users.json');
  await putUser(file, {
    user: 'gent',
    password: await hashPassword('gent-pass'),
    offices: ['gent'],
  });
  await putUser(file, { user: 'ops', password: await hashPassword('ops-pass'), offices: '*' });
  const stores = pipelines.map((p) => p.ctx.store);
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    users: await readUsersFile(file),
    overview: async () => (await Promise.all(stores.map((s) => recentProgress(s)))).flat(),
    sheet: async (sheetId) => {
      for (const store of stores) {
        const found: SheetDetail | undefined = await sheetDetail(store, sheetId);
        if (found !== undefined) return found;
      }
      return undefined;
    },
    health: () => Promise.resolve({ redis: true, api: true }),
    queues: pipelines.flatMap((p) => Object.values(p.ctx.queues)),
    logger: createLogger({ level: 'silent' }),
  });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await Promise.all(pipelines.map((p) => p.close()));
});

function as(username: string, password: string): Promise<BrowserContext> {
  if (browser === undefined) throw new Error('no browser');
  return browser.newContext({
    viewport: { width: 1280, height: 900 },
    httpCredentials: { username, password },
  });
}

/** The sheets a page lists, by their ids. */
async function listed(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const row of await page.locator('tr[data-sheet-id]').all())
    ids.push((await row.getAttribute('data-sheet-id')) ?? '');
  return ids;
}

const url = (path: string) => `${dashboard?.url ?? ''}${path}`;

describe('in a browser', () => {
  it("shows a user of one office that office's sheet, follows its links, and not the other's", async () => {
    const context = await as('gent', 'gent-pass');
    const page = await context.newPage();
    expect((await page.goto(url('/')))?.status()).toBe(200);
    expect(await listed(page)).toEqual([sheets.gent]);
    // Its own sheet's page, by the link a person clicks, and its report's files.
    await page.locator(`tr[data-sheet-id="${sheets.gent}"] td.sheet a`).click();
    await page.waitForURL(`**/sheets/${sheets.gent ?? ''}`);
    expect(await page.locator('h1').count()).toBeGreaterThan(0);
    for (const file of ['report.csv', 'summary.json', 'failed.zip']) {
      const answer = await context.request.get(url(`/reports/${sheets.gent ?? ''}/${file}`));
      expect([file, answer.status()]).toEqual([file, 200]);
    }
    // The other office's sheet, a link to it typed in, and bull-board: not found.
    for (const path of [`/sheets/${sheets.antwerpen ?? ''}`, '/queues']) {
      const answer = await page.goto(url(path));
      expect([path, answer?.status()]).toEqual([path, 404]);
    }
    const search = await page.goto(url('/search?q=ANTWERPEN-1'));
    expect(search?.status()).toBe(200);
    expect(await page.locator('#hits').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('shows a "*" user both offices and bull-board', async () => {
    const context = await as('ops', 'ops-pass');
    const page = await context.newPage();
    await page.goto(url('/'));
    expect((await listed(page)).sort()).toEqual([sheets.gent, sheets.antwerpen].sort());
    expect((await page.goto(url('/queues')))?.status()).toBe(200);
    await context.close();
  }, 60_000);

  it('asks again for a wrong password', async () => {
    const context = await as('gent', 'wrong');
    const page = await context.newPage();
    expect((await page.goto(url('/')))?.status()).toBe(401);
    await context.close();
  }, 60_000);
});
