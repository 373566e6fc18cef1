/**
 * The dashboard's users (docs/design.md "The dashboard's users") over real HTTP, with sheets of
 * two offices imported for real through the pipeline and the sandbox: a user of one office is
 * refused every page, row page, report file, zip and search result of the other, exactly as an
 * unknown sheet is; a `*` user sees both, and only they see /queues and /metrics.
 */
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../src/dashboard/password.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { putUser, readUsersFile } from '../../src/dashboard/users.js';
import { createLogger } from '../../src/logger.js';
import { type SheetDetail, sheetDetail, recentProgress } from '../../src/store/progress.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let gent: TestPipeline | undefined;
let antwerpen: TestPipeline | undefined;
let dashboard: RunningDashboard | undefined;
let gentSheet: string;
let antwerpenSheet: string;

const PASSWORDS = { gent: 'gent-wachtwoord', ops: 'ops-wachtwoord' } as const;

/** Two rows of an office's sheet: one valid, one invalid (so that failed.zip exists). */
async function importFor(pipeline: TestPipeline, office: string): Promise<string> {
  const dir = await tempDir(`${office}-`);
  const prefix = office.toUpperCase();
  const path = await writeCsvSheet(dir, `${office}.csv`, [
    sheetRow(1, { reference: `${prefix}-1`, city: office }),
    sheetRow(2, { reference: `${prefix}-2`, city: '' }),
  ]);
  const progress = await pipeline.importSheet(path);
  return progress.sheetId;
}

beforeAll(async () => {
  const pipelines = await Promise.all([
    testPipeline({ connectionName: 'gent' }),
    testPipeline({ connectionName: 'antwerpen' }),
  ]);
  [gent, antwerpen] = pipelines;
  [gentSheet, antwerpenSheet] = await Promise.all([
    importFor(pipelines[0], 'gent'),
    importFor(pipelines[1], 'antwerpen'),
  ]);
  const file = join(await tempDir('users-'), 'users.json');
  await putUser(file, {
    user: 'gent',
    password: await hashPassword(PASSWORDS.gent),
    offices: ['gent'],
  });
  await putUser(file, { user: 'ops', password: await hashPassword(PASSWORDS.ops), offices: '*' });
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
    notTaken: () =>
      Promise.resolve([
        { path: 'antwerpen/linked.csv', reason: 'a link', at: '2026-11-27T08:00:00Z' },
      ]),
    health: () => Promise.resolve({ redis: true, api: true }),
    metrics: pipelines[0].ctx.metrics,
    queues: pipelines.flatMap((p) => Object.values(p.ctx.queues)),
    logger: createLogger({ level: 'silent' }),
  });
}, 60_000);

afterAll(async () => {
  await dashboard?.close();
  await Promise.all([gent?.close(), antwerpen?.close()]);
});

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

async function get(
  path: string,
  as?: keyof typeof PASSWORDS | { user: string; password: string },
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {};
  if (typeof as === 'string') headers.authorization = basic(as, PASSWORDS[as]);
  else if (as !== undefined) headers.authorization = basic(as.user, as.password);
  const answer = await fetch(`${dashboard?.url ?? ''}${path}`, { headers });
  return { status: answer.status, body: await answer.text() };
}

/** A sheet id of the same shape as a real one that no sheet has. */
const unknownLike = (sheetId: string) => sheetId.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));

/** Every route that shows a sheet or hands out its files. */
const sheetRoutes = (id: string) => [
  `/sheets/${id}`,
  `/sheets/${id}?status=invalid`,
  `/sheets/${id}?status=created&page=1`,
  `/reports/${id}/report.csv`,
  `/reports/${id}/summary.json`,
  `/reports/${id}/needs-review.csv`,
  `/reports/${id}/failed.zip`,
];

describe('logging in', () => {
  it('refuses no password, a wrong one and an unknown user with 401', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/', { user: 'gent', password: PASSWORDS.ops })).status).toBe(401);
    expect((await get('/', { user: 'nobody', password: PASSWORDS.gent })).status).toBe(401);
    // The login page says whose password it asks for: their own, not DASHBOARD_USER's.
    expect((await get('/')).body).toContain('with order-importer dashboard-user');
    expect((await get('/api/imports', { user: 'gent', password: '' })).status).toBe(401);
  });

  it('leaves /healthz, /readyz and the agenda feeds open (the feed checks its own key)', async () => {
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    // No agenda yet in this dashboard: the path is not found, but not asked a password for.
    expect((await get('/agenda/gent.ics?key=x')).status).toBe(404);
    expect((await get('/agenda/gent.ics/x')).status).toBe(401);
    expect((await get('/agenda.ics')).status).toBe(401);
  });
});

describe('a user of one office', () => {
  it("sees their office's sheets and counts on the overview and /api/imports, none of the other's", async () => {
    const page = await get('/', 'gent');
    expect(page.status).toBe(200);
    expect(page.body).toContain(gentSheet);
    expect(page.body).not.toContain(antwerpenSheet);
    expect(page.body).not.toContain('antwerpen.csv');
    // The sheets not taken name no office: only those who see every office see them.
    expect(page.body).not.toContain('antwerpen/linked.csv');
    const api = JSON.parse((await get('/api/imports', 'gent')).body) as {
      imports: Array<{ sheetId: string }>;
    };
    expect(api.imports.map((s) => s.sheetId)).toEqual([gentSheet]);
  });

  it('opens their own sheet, its row pages and every report file and zip', async () => {
    for (const path of sheetRoutes(gentSheet).filter((p) => !p.includes('needs-review')))
      expect([path, (await get(path, 'gent')).status]).toEqual([path, 200]);
  });

  it("is answered for the other office's sheet exactly as for a sheet that does not exist", async () => {
    const unknown = unknownLike(antwerpenSheet);
    for (const path of sheetRoutes(antwerpenSheet)) {
      const theirs = await get(path, 'gent');
      const none = await get(path.replace(antwerpenSheet, unknown), 'gent');
      expect([path, theirs.status]).toEqual([path, 404]);
      expect(theirs.body.replaceAll(antwerpenSheet, unknown)).toBe(none.body);
    }
  });

  it('finds nothing of the other office in the search, nor counts its sheets', async () => {
    const theirs = await get('/search?q=ANTWERPEN-1', 'gent');
    expect(theirs.body).not.toContain('id="hits"');
    expect(theirs.body).not.toContain(antwerpenSheet);
    expect(theirs.body).toMatch(/in 1 reported sheet,/);
    const own = await get('/search?q=GENT-1', 'gent');
    expect(own.body).toContain(`data-sheet-id="${gentSheet}"`);
  });

  it('is refused /queues and /metrics as paths that do not exist', async () => {
    const none = await get('/no-such-page', 'gent');
    for (const path of ['/queues', '/queues/', '/queues/api/queues', '/metrics']) {
      const answer = await get(path, 'gent');
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.body).toBe(none.body.replaceAll('/no-such-page', path));
    }
  });
});

describe('a "*" user', () => {
  it('sees both offices, their sheets, files and search results', async () => {
    const page = await get('/', 'ops');
    expect(page.body).toContain(gentSheet);
    expect(page.body).toContain(antwerpenSheet);
    expect(page.body).toContain('antwerpen/linked.csv');
    for (const path of [...sheetRoutes(gentSheet), ...sheetRoutes(antwerpenSheet)]) {
      if (path.includes('needs-review')) continue;
      expect([path, (await get(path, 'ops')).status]).toEqual([path, 200]);
    }
    expect((await get('/search?q=ANTWERPEN-1', 'ops')).body).toContain(
      `data-sheet-id="${antwerpenSheet}"`,
    );
  });

  it('sees /queues and /metrics', async () => {
    expect((await get('/queues', 'ops')).status).toBe(200);
    expect((await get('/queues/api/queues', 'ops')).status).toBe(200);
    const metrics = await get('/metrics', 'ops');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('order_importer_rows_total');
  });
});
