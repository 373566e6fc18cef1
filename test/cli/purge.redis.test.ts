/**
 * Retention (docs/design.md "Operations", "Retention"): `order-importer purge` and watch's daily
 * RETENTION_DAYS pass against real imports — the CLI in process, a real Redis under the test's
 * own prefix, a sandbox over HTTP, real files. A sheet purged leaves no report, copy or record
 * behind, yet its rows imported again are `duplicate` (the ledger stays); another connection's,
 * another installation's, a running sheet, and anything a record in Redis points at outside
 * REPORTS_DIR or through a link are left alone.
 */
import { mkdir, readdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { retentionPass } from '../../src/app/retention-pass.js';
import { foldersOf } from '../../src/app/retention.js';
import type { Summary } from '../../src/report/report.js';
import { Keys } from '../../src/store/keys.js';
import { sheetKeys } from '../../src/store/sheet-purge.js';
import { InProcessCli, importerEnv, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox({
    tokens: [
      { token: 'sandbox-demo-token', org: 'demo' },
      { token: 'token-gent', org: 'gent' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

const keys = () => new Keys(`{${redis.prefix}}`);
/**
 * A hang guard for tests that run several whole imports in process: on a machine loaded by other
 * test runs, one import takes seconds.
 */
const IMPORTS_GUARD_MS = 120_000;
/** Now, as `--before` takes it: every sheet reported so far (a later date is refused). */
const upToNow = () => new Date().toISOString();

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** An import of `rows` rows from `first` by the CLI; its summary. */
async function imported(env: Record<string, string>, first: number, args: string[] = []) {
  const dir = await tempDir('purge-sheet-');
  const path = await writeCsvSheet(
    dir,
    'people.csv',
    [0, 1, 2].map((i) => sheetRow(first + i)),
  );
  const finished = await runInProcess(['import', '--json', ...args, path], env);
  expect(finished.code, finished.stderr).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Array<Summary & { reportDir: string }>;
  if (summary === undefined) throw new Error('no summary');
  return { summary, path };
}

async function redisKeysOf(sheetId: string): Promise<number> {
  return redis.client.exists(...sheetKeys(keys(), sheetId));
}

describe('order-importer purge', { timeout: IMPORTS_GUARD_MS }, () => {
  it('removes a reported sheet whole, and its rows imported again are still duplicates', async () => {
    const dataDir = await tempDir('purge-data-');
    const env = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
    const { summary, path } = await imported(env, 7100);
    const { sheetId, reportDir } = summary;
    expect(await exists(reportDir)).toBe(true);
    expect(await redisKeysOf(sheetId)).toBeGreaterThan(0);
    const orders = (await sandbox.api.listOrders()).length;

    const dry = await runInProcess(['purge', '--before', upToNow(), '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Would remove sheet people.csv (${sheetId}`);
    expect(dry.stdout).toMatch(/Would remove 1 sheet reported before/);
    expect(await exists(reportDir)).toBe(true);
    expect(await redisKeysOf(sheetId)).toBeGreaterThan(0);

    const purged = await runInProcess(['purge', '--before', upToNow()], env);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(new RegExp(`Removed sheet people.csv \\(${sheetId}.*1 folder`));
    expect(await exists(reportDir)).toBe(false);
    // `import`'s private copy went once the report was written; the user's sheet stays theirs.
    expect(await exists(join(dataDir, 'sheets', sheetId))).toBe(false);
    expect(await redisKeysOf(sheetId)).toBe(0);
    expect(await redis.client.zscore(keys().allSheets, sheetId)).toBeNull();
    expect(await redis.client.scard(keys().purging)).toBe(0);

    const again = await runInProcess(['purge', '--before', upToNow()], env);
    expect(again.stdout).toMatch(/Removed 0 sheets/);

    const reimport = await runInProcess(['import', '--json', path], env);
    const [second] = JSON.parse(reimport.stdout) as Summary[];
    expect(second).toMatchObject({ total: 3, duplicate: 3, created: 0 });
    expect(await sandbox.api.listOrders()).toHaveLength(orders);
  });

  it('leaves sheets reported after DATE, another installation’s, and says it in Dutch', async () => {
    const dataDir = await tempDir('purge-mine-');
    const otherDir = await tempDir('purge-other-');
    const mine = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
    const other = importerEnv({ redis, apiUrl: sandbox.url, dataDir: otherDir });
    const { summary: ours } = await imported(mine, 7200);
    const { summary: theirs } = await imported(other, 7300);
    const past = await runInProcess(['purge', '--before', '2000-01-01'], mine);
    expect(past.stdout).toMatch(/Removed 0 sheets/);
    expect(await exists(ours.reportDir)).toBe(true);
    const nl = await runInProcess(['purge', '--before', upToNow(), '--language', 'nl'], mine);
    expect(nl.code, nl.stderr).toBe(0);
    expect(nl.stdout).toContain(`Lijst people.csv (${ours.sheetId}`);
    expect(nl.stdout).not.toContain(theirs.sheetId);
    expect(await exists(ours.reportDir)).toBe(false);
    expect(await exists(theirs.reportDir)).toBe(true);
    expect(await redisKeysOf(theirs.sheetId)).toBeGreaterThan(0);
  });

  it('--connection limits the purge to one office of the config file', async () => {
    const dir = await tempDir('purge-offices-');
    await put(dir, 'gent.token', 'token-gent\n');
    await put(dir, 'brugge.token', 'token-brugge\n');
    const config = await put(
      dir,
      'importer.json',
      JSON.stringify({
        connections: [
          { name: 'gent', apiBaseUrl: sandbox.url, tokenFile: 'gent.token' },
          { name: 'brugge', apiBaseUrl: sandbox.url, tokenFile: 'brugge.token', inbox: 'b' },
        ],
      }),
    );
    const env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `{${redis.prefix}}`,
      DATA_DIR: join(dir, 'data'),
      RETRY_DELAY_MS: '50',
    };
    const withConfig = ['--config', config];
    const { summary: gent } = await imported(env, 7400, [...withConfig, '--connection', 'gent']);
    const { summary: brugge } = await imported(env, 7500, [
      ...withConfig,
      '--connection',
      'brugge',
    ]);
    const purged = await runInProcess(
      ['purge', ...withConfig, '--before', upToNow(), '--connection', 'gent'],
      env,
    );
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(/Removed 1 sheet /);
    expect(await exists(gent.reportDir)).toBe(false);
    expect(await exists(brugge.reportDir)).toBe(true);
    expect(await redisKeysOf(brugge.sheetId)).toBeGreaterThan(0);
  });

  it('never removes a folder outside REPORTS_DIR, nor through a link, that Redis names', async () => {
    const dataDir = await tempDir('purge-hostile-');
    const env = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
    const outside = await tempDir('purge-outside-');
    // A record pointing outside REPORTS_DIR, in a folder named as the sheet's would be.
    const { summary: first } = await imported(env, 7600);
    const bait = join(outside, `people-${first.sheetId}`);
    await mkdir(bait);
    await writeFile(join(bait, 'keep.txt'), 'keep');
    await redis.client.hset(keys().sheet(first.sheetId), 'reportDir', bait);
    // A report folder replaced by a link to a folder elsewhere.
    const { summary: second } = await imported(env, 7700);
    const target = join(outside, 'target');
    await rename(second.reportDir, target);
    await symlink(target, second.reportDir);

    const purged = await runInProcess(['purge', '--before', upToNow()], env);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toContain(`Left alone: ${bait}`);
    expect(purged.stdout).toContain(`Left alone: ${second.reportDir}`);
    expect(await exists(join(bait, 'keep.txt'))).toBe(true);
    expect((await readdir(target)).sort()).toContain('report.csv');
    // Its own folders and records went all the same.
    expect(await exists(first.reportDir)).toBe(true); // not named by Redis any more: not found
    expect(await redisKeysOf(first.sheetId)).toBe(0);
    expect(await redisKeysOf(second.sheetId)).toBe(0);
  });
});

describe('order-importer purge --before', { timeout: IMPORTS_GUARD_MS }, () => {
  it('refuses what is no date, in one line and the person’s language', async () => {
    const env = importerEnv({ redis, apiUrl: sandbox.url, dataDir: await tempDir('purge-date-') });
    const en = await runInProcess(['purge', '--before', 'yesterday'], env);
    expect(en.code).toBe(1);
    expect(en.stderr).toBe(
      'order-importer: order-importer purge --before yesterday: not a date (write it as 2025-01-31).\n',
    );
    const fr = await runInProcess(['purge', '--before', '31/01/2025', '--language', 'fr'], env);
    expect(fr.stderr).toContain('ce n’est pas une date');
  });
});

describe("watch's RETENTION_DAYS", { timeout: IMPORTS_GUARD_MS }, () => {
  it('removes the report, archive, work copy and records of a hot-folder sheet past its days', async () => {
    const dataDir = await tempDir('retention-watch-');
    const env = {
      ...importerEnv({ redis, apiUrl: sandbox.url, dataDir }),
      INBOX_STABLE_MS: '300',
      JOB_LOCK_MS: '2000',
    };
    const watch = new InProcessCli(['watch', '--no-dashboard'], env);
    await watch.waitForStderr(/Watching .*inbox/);
    const source = await tempDir('retention-sheet-');
    const sheet = await writeCsvSheet(source, 'hot.csv', [sheetRow(7800), sheetRow(7801)]);
    await rename(sheet, join(dataDir, 'inbox', 'hot.csv'));
    const archive = join(dataDir, 'archive');
    for (let i = 0; i < 1600 && (await readdir(archive)).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const [sheetId = ''] = await readdir(archive);
    watch.stop();
    expect((await watch.finished).code).toBe(0);
    const reportDir = (await redis.client.hget(keys().sheet(sheetId), 'reportDir')) ?? '';
    expect(await exists(reportDir)).toBe(true);
    expect(await exists(join(archive, sheetId, 'hot.csv'))).toBe(true);
    const orders = (await sandbox.api.listOrders()).length;

    const told: string[] = [];
    const pass = {
      redis: redis.client,
      keys: keys(),
      folders: foldersOf({
        reportsDir: join(dataDir, 'reports'),
        archiveDir: archive,
        workDir: join(dataDir, 'work'),
        dataDir,
      }),
      connectionIds: [(await redis.client.hget(keys().sheet(sheetId), 'connectionId')) ?? ''],
      installation: (await redis.client.hget(keys().sheet(sheetId), 'installation')) ?? '',
      language: 'en' as const,
      announce: (line: string) => told.push(line),
      failed: (error: unknown) => {
        throw error;
      },
    };
    // A day later, with 30 days kept: nothing goes.
    const soon = await retentionPass({ ...pass, retentionDays: 30, now: () => Date.now() + 864e5 });
    expect(soon).toEqual([]);
    expect(await retentionPass({ ...pass, retentionDays: 0, now: Date.now })).toBeUndefined();
    // 31 days later: it goes, said on the terminal.
    const later = () => Date.now() + 31 * 864e5;
    const gone = await retentionPass({ ...pass, retentionDays: 30, now: later });
    expect(gone?.map((s) => s.sheetId)).toEqual([sheetId]);
    expect(told.join('\n')).toMatch(/Retention \(RETENTION_DAYS=30\)[^]*Removed sheet hot.csv/);
    expect(await exists(reportDir)).toBe(false);
    expect(await exists(join(archive, sheetId))).toBe(false);
    expect(await exists(join(dataDir, 'sheets', sheetId))).toBe(false);
    expect(await redisKeysOf(sheetId)).toBe(0);

    // The same sheet dropped again: its rows are duplicates, no order is made.
    const same = await writeCsvSheet(await tempDir('retention-again-'), 'hot.csv', [
      sheetRow(7800),
      sheetRow(7801),
    ]);
    const again = await runInProcess(['import', '--json', same], env);
    const [summary] = JSON.parse(again.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 2, duplicate: 2, created: 0 });
    expect(await sandbox.api.listOrders()).toHaveLength(orders);
  });

  it('is applied by watch itself at start, and said on its terminal', async () => {
    const dataDir = await tempDir('retention-start-');
    const env = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
    const { summary } = await imported(env, 7900);
    // Queued and reported long ago, as a clock moved on would have it.
    const sheetKey = keys().sheet(summary.sheetId);
    await redis.client.hset(sheetKey, 'startedAt', '2020-01-01T00:00:00.000Z');
    await redis.client.hset(sheetKey, 'finishedAt', '2020-01-01T00:01:00.000Z');
    await redis.client.zadd(keys().allSheets, Date.parse('2020-01-01'), summary.sheetId);
    const watch = new InProcessCli(['watch', '--no-dashboard'], { ...env, RETENTION_DAYS: '30' });
    await watch.waitForStderr(new RegExp(`Removed sheet people.csv \\(${summary.sheetId}`));
    watch.stop();
    expect((await watch.finished).code).toBe(0);
    expect(watch.stderr).toContain('Retention (RETENTION_DAYS=30)');
    expect(await exists(summary.reportDir)).toBe(false);
    expect(await redisKeysOf(summary.sheetId)).toBe(0);
  });
});
