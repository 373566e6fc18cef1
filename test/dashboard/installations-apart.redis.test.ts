/**
 * One installation, one namespace (docs/design.md "Operations", "The dashboard's users"): two
 * installations — each its own config file, office, token and data folder — share one real Redis
 * and one QUEUE_PREFIX (and, to make it harder, one REPORTS_DIR). Each dashboard, `watch`'s and
 * the `dashboard` command alone, lists, counts and searches only its own sheet, answers the
 * other's sheet page, report file and zip as it answers an unknown one, shows only its own queues
 * by office name, labels /metrics by office name; `status` alone reads only its own sheets.
 */
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

interface Imported {
  sheetId: string;
  name: string;
  connection?: string;
  connectionId?: string;
  state: string;
}

interface Office {
  name: string;
  config: string;
  dataDir: string;
  env: Record<string, string>;
}

let redis: TestRedis;
let sandbox: TestSandbox;
let reportsDir: string;
let prefix: string;
const running: InProcessCli[] = [];

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-gent', org: 'gent' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  reportsDir = join(await tempDir('apart-reports-'), 'reports');
  prefix = `{${redis.prefix}-apart}`;
});
afterAll(async () => {
  for (const cli of running) cli.stop('SIGTERM');
  await Promise.all(running.map((cli) => cli.finished));
  await sandbox.close();
  await redis.cleanup();
});

/** An installation of one office, on the shared Redis, prefix and reports folder. */
async function office(name: string): Promise<Office> {
  const dir = await tempDir(`apart-${name}-`);
  await put(dir, `secrets/${name}.token`, `token-${name}\n`);
  const config = await put(
    dir,
    'importer.json',
    JSON.stringify({
      connections: [{ name, apiBaseUrl: sandbox.url, tokenFile: `secrets/${name}.token` }],
    }),
  );
  const dataDir = join(dir, 'data');
  const env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: prefix,
    DATA_DIR: dataDir,
    REPORTS_DIR: reportsDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  };
  return { name, config, dataDir, env };
}

/** Two valid rows and an invalid one (its report has a failed/ bundle), all on the Kerkstraat. */
function officeRows(from: number) {
  return [
    sheetRow(from),
    sheetRow(from + 1),
    sheetRow(from + 2, { order_products: 'NO-SUCH-PRODUCT' }),
  ];
}

function started(args: string[], env: Record<string, string>): InProcessCli {
  const cli = new InProcessCli(args, env);
  running.push(cli);
  return cli;
}

async function stop(cli: InProcessCli): Promise<void> {
  cli.stop('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

async function imports(url: string): Promise<Imported[]> {
  const answer = (await (await fetch(`${url}/api/imports`)).json()) as { imports: Imported[] };
  return answer.imports;
}

/** A page's status, its body read to its end (a body left unread keeps its connection open). */
async function statusOf(url: string): Promise<number> {
  const answer = await fetch(url);
  await answer.arrayBuffer();
  return answer.status;
}

/** What a dashboard shows of its own sheet and of the other installation's. */
async function expectApart(url: string, own: Imported, other: Imported): Promise<void> {
  const listed = await imports(url);
  expect(listed.map((s) => s.sheetId)).toEqual([own.sheetId]);
  const page = await (await fetch(`${url}/`)).text();
  expect(page).toContain(own.sheetId);
  expect(page).not.toContain(other.sheetId);
  expect(page).not.toContain(other.name);

  const search = await (await fetch(`${url}/search?q=Kerkstraat`)).text();
  expect(search).toContain(`/sheets/${own.sheetId}`);
  expect(search).not.toContain(other.sheetId);

  const unknown = await fetch(`${url}/sheets/20000101-000000-000000`);
  const theirs = await fetch(`${url}/sheets/${other.sheetId}`);
  expect(unknown.status).toBe(404);
  expect(theirs.status).toBe(404);
  const unknownText = (await unknown.text()).replaceAll('20000101-000000-000000', 'ID');
  expect((await theirs.text()).replaceAll(other.sheetId, 'ID')).toBe(unknownText);
  expect(await statusOf(`${url}/sheets/${own.sheetId}`)).toBe(200);

  for (const file of ['report.csv', 'summary.json', 'failed.zip']) {
    expect(await statusOf(`${url}/reports/${own.sheetId}/${file}`), file).toBe(200);
    expect(await statusOf(`${url}/reports/${other.sheetId}/${file}`), file).toBe(404);
  }
}

/** bull-board's queues: only this office's, each named "<office> · <queue>". */
async function expectQueues(url: string, own: string, other: string): Promise<void> {
  const board = (await (await fetch(`${url}/queues/api/queues`)).json()) as {
    queues: Array<{ name: string; displayName?: string }>;
  };
  const names = board.queues.map((q) => q.displayName).sort();
  expect(names).toEqual(
    ['intake', 'notify', 'reports', 'rows', 'sheets', 'status'].map((q) => `${own} · ${q}`),
  );
  expect(JSON.stringify(board)).not.toContain(other);
}

/** /metrics: labelled by office name, no connection's hash, nothing of the other office. */
async function expectMetrics(
  url: string,
  own: Imported,
  other: Imported,
  counted: boolean,
): Promise<void> {
  const text = await (await fetch(`${url}/metrics`)).text();
  expect(text).toMatch(
    new RegExp(`^order_importer_queue_jobs\\{connection="${own.connection}",queue="rows",`, 'm'),
  );
  if (counted) {
    expect(text).toMatch(
      new RegExp(
        `^order_importer_rows_total\\{connection="${own.connection}",status="created"\\} 2$`,
        'm',
      ),
    );
    expect(text).toMatch(
      new RegExp(`^order_importer_api_requests_total\\{connection="${own.connection}",`, 'm'),
    );
  }
  expect(text).not.toContain(`connection="${other.connection}"`);
  for (const id of [own.connectionId, other.connectionId]) expect(text).not.toContain(id);
}

describe('two installations on one Redis and prefix', () => {
  it('each dashboard, status and bull-board show only their own office', async () => {
    const gent = await office('gent');
    const brugge = await office('brugge');

    // Brugge imports by `import`; gent by its `watch`, whose dashboard then counts it.
    const sheets = await tempDir('apart-sheets-');
    const bruggeSheet = await writeCsvSheet(sheets, 'brugge-orders.csv', officeRows(200));
    const imported = await runInProcess(
      ['import', '--config', brugge.config, bruggeSheet],
      brugge.env,
    );
    expect(imported.code, imported.stderr + imported.stdout).toBe(2);

    const gentPort = await freePort();
    const watch = started(['watch', '--config', gent.config], {
      ...gent.env,
      DASHBOARD_PORT: String(gentPort),
    });
    await watch.waitForStderr(/Watching /, 30_000);
    const watchUrl = `http://127.0.0.1:${gentPort}`;
    await writeCsvSheet(join(gent.dataDir, 'inbox', 'gent'), 'gent-orders.csv', officeRows(100));
    const own = await eventually(
      async () =>
        (await imports(watchUrl)).find((s) => s.name === 'gent-orders.csv' && s.state === 'done'),
      () => watch.stderr,
    );

    // Brugge's own dashboard, alone, gives brugge's sheet as it knows it.
    const bruggePort = await freePort();
    const bruggeBoard = started(['dashboard', '--config', brugge.config], {
      ...brugge.env,
      DASHBOARD_PORT: String(bruggePort),
    });
    await bruggeBoard.waitForStderr(/Press Ctrl\+C|Ctrl-C|stop/i);
    const bruggeUrl = `http://127.0.0.1:${bruggePort}`;
    const theirs = (await imports(bruggeUrl)).find((s) => s.name === 'brugge-orders.csv');
    expect(theirs).toMatchObject({
      name: 'brugge-orders.csv',
      connection: 'brugge',
      state: 'done',
    });
    if (theirs === undefined) throw new Error('brugge has no sheet');
    expect(own).toMatchObject({ name: 'gent-orders.csv', connection: 'gent' });
    expect(own.connectionId).not.toBe(theirs.connectionId);

    // Gent's dashboard alone, beside its watch.
    const gentAlonePort = await freePort();
    const gentBoard = started(['dashboard', '--config', gent.config], {
      ...gent.env,
      DASHBOARD_PORT: String(gentAlonePort),
    });
    await gentBoard.waitForStderr(/Press Ctrl\+C|Ctrl-C|stop/i);
    const gentAloneUrl = `http://127.0.0.1:${gentAlonePort}`;

    for (const [url, mine, other, counted] of [
      [watchUrl, own, theirs, true],
      [gentAloneUrl, own, theirs, false],
      [bruggeUrl, theirs, own, false],
    ] as const) {
      await expectApart(url, mine, other);
      await expectQueues(url, mine.connection ?? '', other.connection ?? '');
      await expectMetrics(url, mine, other, counted);
    }

    // `status` without arguments: only this installation's sheets, though the reports lie together.
    const status = await runInProcess(['status', '--json', '--config', brugge.config], brugge.env);
    expect(status.code, status.stderr).toBe(0);
    const read = JSON.parse(status.stdout) as Array<{ sheetId: string }>;
    expect(read.map((s) => s.sheetId)).toEqual([theirs.sheetId]);
    expect(status.stdout + status.stderr).not.toContain(own.sheetId);

    await stop(bruggeBoard);
    await stop(gentBoard);
    await stop(watch);
  }, 120_000);

  it('dashboard alone refuses to start when an office’s token cannot be read, as other commands do', async () => {
    const gent = await office('gent');
    await put(
      join(gent.config, '..'),
      'importer.json',
      JSON.stringify({
        connections: [
          { name: 'gent', apiBaseUrl: sandbox.url, tokenFile: 'secrets/missing.token' },
        ],
      }),
    );
    const finished = await runInProcess(['dashboard', '--config', gent.config], {
      ...gent.env,
      DASHBOARD_PORT: String(await freePort()),
    });
    expect(finished.code, finished.stderr).toBe(1);
    expect(finished.stderr).toMatch(
      /The token file of connection "gent" \(.*missing\.token\) cannot be read/,
    );
  });

  it('dashboard alone on the embedded defaults shows the sheets of its data folder’s sandbox', async () => {
    const dataDir = join(await tempDir('apart-embedded-'), 'data');
    const env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      RETRY_DELAY_MS: '50',
    };
    const sheet = await writeCsvSheet(await tempDir('apart-sheets-'), 'rehearsal.csv', [
      sheetRow(900),
    ]);
    const imported = await runInProcess(['import', sheet], env);
    expect(imported.code, imported.stderr).toBe(0);
    const port = await freePort();
    const alone = started(['dashboard'], { ...env, DASHBOARD_PORT: String(port) });
    await alone.waitForStderr(/Stop with Ctrl\+C/);
    const listed = await imports(`http://127.0.0.1:${port}`);
    expect(listed.map((s) => [s.name, s.connection])).toEqual([['rehearsal.csv', 'sandbox']]);
    await stop(alone);
  });
});
