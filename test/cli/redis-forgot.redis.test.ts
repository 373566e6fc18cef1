/**
 * A Redis that lost its data (docs/design.md §3, "A Redis that forgot"), in process: a real
 * redis-server that keeps nothing on disk (`--save '' --appendonly no`), killed -9 and started
 * again empty on the same port. Imports are refused until `ledger rebuild`, which rebuilds the
 * duplicates ledger from the reports and the record of creates on disk.
 */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { connectionOf } from '../../src/connections/connection.js';
import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { referenceKey } from '../../src/store/ledger.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redisServer(options: { port?: number; aof?: boolean } = {}): Promise<LocalRedis> {
  const redis = await startLocalRedis({
    dir: await tempDir('forgot-redis-'),
    appendOnly: options.aof ?? false,
    ...(options.port !== undefined && { port: options.port }),
  });
  cleanups.push(() => redis.stop());
  return redis;
}

/** kill -9, then the same port again, empty. */
async function forgets(redis: LocalRedis): Promise<LocalRedis> {
  redis.process.kill('SIGKILL');
  await new Promise((resolve) => redis.process.once('exit', resolve));
  return redisServer({ port: redis.port });
}

interface Setup {
  redis: LocalRedis;
  sandbox: TestSandbox;
  env: Record<string, string>;
  reportsDir: string;
  dataDir: string;
}

async function setup(options: { aof?: boolean } = {}): Promise<Setup> {
  const redis = await redisServer(options);
  const sandbox = await testSandbox();
  cleanups.push(() => sandbox.close());
  const dataDir = await tempDir('forgot-data-');
  const reportsDir = await tempDir('forgot-reports-');
  const env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: '{forgot}',
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    REPORTS_DIR: reportsDir,
    RETRY_DELAY_MS: '50',
  };
  return { redis, sandbox, env, reportsDir, dataDir };
}

const orderCount = async (sandbox: TestSandbox) => (await sandbox.api.listOrders()).length;

/** Lines of a stack trace, or of an error nobody handled. */
const traces = (stderr: string) =>
  stderr.split('\n').filter((line) => /^\s+at |ZodError|unexpected error/.test(line));

describe('an import after Redis lost its data', () => {
  it('is refused with one line until `ledger rebuild`; then the rows imported before are duplicates', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(
      await tempDir('forgot-sheet-'),
      'orders.csv',
      Array.from({ length: 6 }, (_, i) => sheetRow(100 + i)),
    );
    const first = await runInProcess(['import', sheet], s.env);
    expect(first.code, first.stderr).toBe(0);
    expect(await orderCount(s.sandbox)).toBe(6);

    s.redis = await forgets(s.redis);
    const refused = await runInProcess(['import', sheet], s.env);
    expect(refused.code, refused.stderr).toBe(1);
    // The error of the command: one line (the start's note on persistence apart).
    const why = refused.stderr.split('\n').filter((l) => l.startsWith('order-importer:'));
    expect(why).toEqual([
      expect.stringMatching(
        /^order-importer: Redis has none of this data folder's imports .*connection "default" .*refused until you run `order-importer ledger rebuild`\.$/,
      ),
    ]);
    expect(traces(refused.stderr)).toEqual([]);
    expect(await orderCount(s.sandbox)).toBe(6);

    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(
      /Connection "default": the duplicates ledger rebuilt from 1 report and 0 sheets cut short: 6 orders and 0 creates of unknown outcome written, 0 already there\./,
    );
    const again = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(again.stderr).toMatch(/: 0 orders and 0 creates of unknown outcome written, 6 already/);

    const imported = await runInProcess(['import', '--json', sheet], s.env);
    expect(imported.code, imported.stderr).toBe(0);
    const [summary] = JSON.parse(imported.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 6, duplicate: 6, created: 0 });
    expect(await orderCount(s.sandbox)).toBe(6);
  }, 60_000);

  it('makes a row whose create was sent with no answer kept `needs-review`, never a second order', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'orders.csv', [
      sheetRow(201),
      sheetRow(202),
    ]);
    await runInProcess(['import', sheet], s.env); // marks the installation in this Redis
    s.redis = await forgets(s.redis);
    // What an import cut short left on disk: a create of R-900 sent, its answer lost.
    const connection = connectionOf({
      apiBaseUrl: s.sandbox.url,
      token: 'sandbox-demo-token',
      name: 'default',
      sandbox: false,
    });
    const sent = { c: connection.id, r: 1, k: referenceKey(connection.id, 'R-900'), s: 'then' };
    await put(join(s.dataDir, 'creates'), 'cut-short-1.ndjson', `${JSON.stringify(sent)}\n`);
    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.stderr).toMatch(/1 sheet cut short: 2 orders and 1 creates of unknown outcome/);

    const before = await orderCount(s.sandbox);
    const again = await writeCsvSheet(await tempDir('forgot-sheet-'), 'again.csv', [sheetRow(900)]);
    const imported = await runInProcess(['import', '--json', again], s.env);
    expect(imported.code, imported.stderr).toBe(2);
    const [summary] = JSON.parse(imported.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 1, needsReview: 1, created: 0 });
    expect(await orderCount(s.sandbox)).toBe(before);
  }, 60_000);
});

/** The one summary written under `reportsDir`, once it is there. */
async function oneSummary(reportsDir: string, cli: InProcessCli): Promise<Summary> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    for (const dir of await readdir(reportsDir).catch(() => [])) {
      const text = await readFile(join(reportsDir, dir, 'summary.json'), 'utf8').catch(() => '');
      if (text !== '') return JSON.parse(text) as Summary;
    }
    if (Date.now() > deadline) throw new Error(`no report in time:\n${cli.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('rows without a reference reported before the record of creates existed', () => {
  /** Imported, then the record of creates removed (an older version kept none), then forgotten. */
  async function importedThenForgotten(s: Setup, rows: number) {
    const dir = await tempDir('forgot-sheet-');
    const cells = (n: number) => sheetRow(n, { reference: '' });
    const sheet = await writeCsvSheet(
      dir,
      'orders.csv',
      Array.from({ length: rows }, (_, i) => cells(300 + i)),
    );
    const first = await runInProcess(['import', '--json', sheet], s.env);
    expect(first.code, first.stderr).toBe(0);
    const [{ sheetId, created }] = JSON.parse(first.stdout) as [Summary];
    expect(created).toBe(rows);
    await rm(join(s.dataDir, 'creates', `${sheetId}.ndjson`));
    s.redis = await forgets(s.redis);
    return { sheet, sheetId };
  }

  it('are keyed again from the sheet on disk: a re-import makes them duplicates, not second orders', async () => {
    const s = await setup();
    const { sheet } = await importedThenForgotten(s, 4);
    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);

    // Other bytes, the same four rows and a new one: each row is looked up in the ledger.
    const rows = Array.from({ length: 5 }, (_, i) => sheetRow(300 + i, { reference: '' }));
    const other = await writeCsvSheet(await tempDir('forgot-other-'), 'more.csv', rows);
    const imported = await runInProcess(['import', '--json', other], s.env);
    expect(imported.code, imported.stderr).toBe(0);
    const [summary] = JSON.parse(imported.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 5, duplicate: 4, created: 1 });
    expect(await orderCount(s.sandbox)).toBe(5);
    // The same bytes again: row by row too (which sheet had them is not restored).
    const same = await runInProcess(['import', '--json', sheet], s.env);
    expect(same.code, same.stderr).toBe(0);
    const [again] = JSON.parse(same.stdout) as Summary[];
    expect(again).toMatchObject({ total: 4, duplicate: 4, created: 0 });
    expect(await orderCount(s.sandbox)).toBe(5);
    expect(rebuilt.stderr).toMatch(
      /: 4 orders and 0 creates of unknown outcome written, 0 already there\. 4 orders of rows without a reference keyed again from their sheets on disk\./,
    );
    expect(rebuilt.stderr).not.toMatch(/could not be/);
  }, 60_000);

  it("are keyed from a hot-folder sheet's archive copy, read with the mapping it was taken with", async () => {
    const s = await setup();
    const inbox = join(s.dataDir, 'inbox');
    const mapping = await put(inbox, 'mapping.json', JSON.stringify({ Straat: 'address1' }));
    const rows = Array.from({ length: 4 }, (_, i) => sheetRow(400 + i, { reference: '' }));
    const text = (
      await readFile(await writeCsvSheet(await tempDir('forgot-sheet-'), 'o.csv', rows), 'utf8')
    ).replace('address1', 'Straat');
    const watch = new InProcessCli(['watch', '--no-dashboard'], s.env);
    await watch.waitForStderr(/Watching /, 30_000);
    await put(inbox, 'orders.csv', text);
    await oneSummary(s.reportsDir, watch);
    watch.stop('SIGTERM');
    expect((await watch.finished).code, watch.stderr).toBe(0);
    // Read once the watcher has stopped, its report job ended: the summary is written before the
    // work folder is archived, then again saying where the sheet is now.
    const summary = await oneSummary(s.reportsDir, watch);
    expect(summary).toMatchObject({ created: 4 });
    expect(summary.sheet).toBe(join(s.dataDir, 'archive', summary.sheetId, 'orders.csv'));
    await rm(join(s.dataDir, 'creates', `${summary.sheetId}.ndjson`));
    s.redis = await forgets(s.redis);
    // Gone from the inbox: only the journal archived with the sheet says how it was read.
    await rm(mapping);

    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const again = await put(await tempDir('forgot-again-'), 'again.csv', text);
    await put(dirname(again), 'mapping.json', JSON.stringify({ Straat: 'address1' }));
    const imported = await runInProcess(['import', '--json', again], s.env);
    expect(imported.code, imported.stderr).toBe(0);
    const [reimported] = JSON.parse(imported.stdout) as Summary[];
    expect(reimported).toMatchObject({ total: 4, duplicate: 4, created: 0 });
    expect(await orderCount(s.sandbox)).toBe(4);
    expect(rebuilt.stderr).toMatch(/4 orders of rows without a reference keyed again/);
  }, 90_000);

  it('read otherwise now than when imported (its mapping gone) are said, not keyed', async () => {
    const s = await setup();
    const dir = await tempDir('forgot-sheet-');
    const mapping = await put(dir, 'mapping.json', JSON.stringify({ Straat: 'address1' }));
    const rows = Array.from({ length: 2 }, (_, i) => sheetRow(700 + i, { reference: '' }));
    const written = await writeCsvSheet(dir, 'mapped.csv', rows);
    await writeFile(written, (await readFile(written, 'utf8')).replace('address1', 'Straat'));
    const first = await runInProcess(['import', '--json', written], s.env);
    const [{ sheetId, created }] = JSON.parse(first.stdout) as [Summary];
    expect(created, first.stderr).toBe(2);
    await rm(join(s.dataDir, 'creates', `${sheetId}.ndjson`));
    s.redis = await forgets(s.redis);
    await rm(mapping); // the same bytes, read now without it: `Straat` is no address

    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain(
      `2 rows of sheet ${sheetId} (${join(s.reportsDir, `mapped-${sheetId}`)}) could not be keyed: ${written} has at row 1 another row than the report's; re-importing it could create them again.`,
    );
  }, 60_000);

  it('whose sheet is gone are said, per sheet, never guessed', async () => {
    const s = await setup();
    const { sheet, sheetId } = await importedThenForgotten(s, 3);
    await writeFile(sheet, 'reference;address1\n;Elsewhere\n'); // saved over: not the bytes imported
    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain(
      `3 rows of sheet ${sheetId} (${join(s.reportsDir, `orders-${sheetId}`)}) could not be keyed: its sheet is no longer on disk; re-importing it could create them again.`,
    );
    expect(rebuilt.stderr).toMatch(
      /: 0 orders and 0 creates .* 3 orders of reported rows without a reference could not be filed/,
    );
  }, 60_000);
});

describe('a new data folder whose first start failed', () => {
  it('is not taken for one a Redis forgot at its next start', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'one.csv', [sheetRow(601)]);
    const refused = await runInProcess(['import', sheet], { ...s.env, API_TOKEN: 'wrong-token' });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).not.toMatch(/ledger rebuild`\.$/m);
    const imported = await runInProcess(['import', sheet], s.env);
    expect(imported.code, imported.stderr).toBe(0);
  }, 60_000);
});

describe('the start against a Redis', () => {
  it('that keeps nothing on disk says so once, with what a restart would cost', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'one.csv', [sheetRow(301)]);
    const finished = await runInProcess(['import', sheet], s.env);
    expect(finished.code, finished.stderr).toBe(0);
    const said = finished.stderr.split('\n').filter((l) => /keeps nothing on disk/.test(l));
    expect(said).toEqual([
      expect.stringMatching(
        /^Redis at redis:\/\/127\.0\.0\.1:\d+ keeps nothing on disk \(no AOF, no snapshots\): a restart of it loses the imports in flight and the duplicates ledger; .*`order-importer ledger rebuild`.*AOF/,
      ),
    ]);
  }, 60_000);

  it('with AOF on says nothing of it', async () => {
    const s = await setup({ aof: true });
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'one.csv', [sheetRow(302)]);
    const finished = await runInProcess(['import', sheet], s.env);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).not.toMatch(/on disk|AOF/);
  }, 60_000);
});

describe('a worker after Redis lost its data', () => {
  it('says so once and works nothing until `ledger rebuild`, then starts', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'one.csv', [sheetRow(401)]);
    expect((await runInProcess(['import', sheet], s.env)).code).toBe(0);
    s.redis = await forgets(s.redis);
    const worker = new InProcessCli(['worker'], s.env);
    cleanups.push(async () => {
      worker.stop();
      await worker.finished;
    });
    await worker.waitForStderr(/imports are refused until you run .* Waiting: .*no row is worked/);
    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    await worker.waitForStderr(/Worker ready/, 20_000);
    expect(worker.stderr.split('\n').filter((l) => /Waiting: /.test(l))).toHaveLength(1);
    worker.stop();
    expect((await worker.finished).code).toBe(0);
  }, 60_000);
});

describe('the hot folder after Redis lost its data mid-work', () => {
  it('takes no sheet out of the inbox until `ledger rebuild`, says so once, then takes it', async () => {
    const s = await setup();
    const env = { ...s.env, INBOX_STABLE_MS: '200' };
    const watch = new InProcessCli(['watch', '--no-dashboard'], env);
    cleanups.push(async () => {
      watch.stop();
      await watch.finished;
    });
    await watch.waitForStderr(/Watching /, 30_000);
    s.redis = await forgets(s.redis);
    await watch.waitForStderr(/Redis came back without its data/, 30_000);
    const inbox = join(s.dataDir, 'inbox');
    const sheet = await writeCsvSheet(inbox, 'later.csv', [sheetRow(601)]);
    // Either it is held off (said), or it is taken: whichever comes first, it must be the first.
    await untilEither(
      () => /held off|holds off/.test(watch.stderr),
      async () => !(await readdir(inbox)).includes('later.csv'),
    );
    expect(await readdir(inbox)).toContain('later.csv');
    expect(await readFile(sheet, 'utf8')).toContain('R-601');

    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const summary = await oneSummary(s.reportsDir, watch);
    expect(summary).toMatchObject({ total: 1, created: 1 });
    expect(watch.stderr.split('\n').filter((l) => /holds off/.test(l))).toHaveLength(1);
    watch.stop('SIGTERM');
    expect((await watch.finished).code, watch.stderr).toBe(0);
  }, 120_000);
});

/** Waits until one of the conditions holds. */
async function untilEither(...conditions: Array<() => boolean | Promise<boolean>>): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    for (const condition of conditions) if (await condition()) return;
    if (Date.now() > deadline) throw new Error('neither came in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('ledger rebuild from hostile report folders', () => {
  it('says what it skipped, files the rest, and does not crash', async () => {
    const s = await setup();
    const sheet = await writeCsvSheet(await tempDir('forgot-sheet-'), 'good.csv', [sheetRow(501)]);
    expect((await runInProcess(['import', sheet], s.env)).code).toBe(0);
    const [good = ''] = await readdir(s.reportsDir);
    const summary = await put(join(s.reportsDir, 'broken-csv-x1'), 'summary.json', '');
    await writeFile(
      summary,
      JSON.stringify({
        sheetId: 'x1',
        finishedAt: new Date().toISOString(),
        connection: 'default',
      }),
    );
    await put(join(s.reportsDir, 'broken-csv-x1'), 'report.csv', 'row,status,"order_id\n1,created');
    await put(join(s.reportsDir, 'not-json-x2'), 'summary.json', '{ not json');
    await put(join(s.reportsDir, 'not-json-x2'), 'report.csv', 'row\n');
    // A report.csv that is a link to the good one, and a folder that is a link to it.
    await mkdir(join(s.reportsDir, 'linked-x3'));
    await writeFile(
      join(s.reportsDir, 'linked-x3', 'summary.json'),
      JSON.stringify({
        sheetId: 'x3',
        finishedAt: new Date().toISOString(),
        connection: 'default',
      }),
    );
    await symlink(
      join(s.reportsDir, good, 'report.csv'),
      join(s.reportsDir, 'linked-x3', 'report.csv'),
    );
    await symlink(join(s.reportsDir, good), join(s.reportsDir, 'folder-link-x4'));
    await put(join(s.dataDir, 'creates'), 'garbage-x5.ndjson', 'not json\n{"r":-1}\n');

    s.redis = await forgets(s.redis);
    const rebuilt = await runInProcess(['ledger', 'rebuild'], s.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(traces(rebuilt.stderr)).toEqual([]);
    expect(rebuilt.stderr).toMatch(/^Skipped: .*broken-csv-x1\/report\.csv cannot be read/m);
    expect(rebuilt.stderr).toMatch(/^Skipped: .*not-json-x2: its summary\.json is not JSON/m);
    expect(rebuilt.stderr).toMatch(/^Skipped: .*garbage-x5\.ndjson: 2 lines not understood/m);
    expect(rebuilt.stderr).toMatch(
      /^Skipped: .*linked-x3\/report\.csv is a link: not followed\.$/m,
    );
    expect(rebuilt.stderr).toMatch(/^Skipped: .*folder-link-x4 is a link: not followed\.$/m);
    // The good report alone is filed: a link is never followed.
    expect(rebuilt.stderr).toMatch(/: 1 orders and 0 creates of unknown outcome written/);
  }, 60_000);
});
