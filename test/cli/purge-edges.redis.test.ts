/**
 * Retention at its edges (docs/design.md "Operations", "Retention" and "One installation, one
 * namespace"), against real imports: a real Redis under each test's own prefix, a sandbox over
 * HTTP, real files. Two installations on one Redis each run their own daily pass; a purge cut
 * short is finished by the next one whatever its date; a record of an older version that names no
 * installation is purged only by the installation whose REPORTS_DIR holds its report; `--before`
 * is a real day of the calendar, in UTC, and not after now.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';

import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { retentionPass, type RetentionPass } from '../../src/app/retention-pass.js';
import { foldersOf } from '../../src/app/retention.js';
import type { Summary } from '../../src/report/report.js';
import { Keys } from '../../src/store/keys.js';
import { Ledger, referenceKey } from '../../src/store/ledger.js';
import { sheetKeys, withdrawSheet } from '../../src/store/sheet-purge.js';
import { importerEnv, runInProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { webhookReceiver } from '../helpers/receivers.js';
import { deleteKeys, type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let sandbox: TestSandbox;
let sandboxDb: Database.Database;
let redis: TestRedis;
beforeAll(async () => {
  const sandboxDir = await tempDir('purge-edge-sandbox-');
  sandbox = await testSandbox({ dataDir: sandboxDir });
  sandboxDb = new Database(join(sandboxDir, 'sandbox.sqlite'));
});
afterAll(async () => {
  sandboxDb.close();
  await sandbox.close();
});
beforeEach(async () => {
  redis = await useTestRedis();
});
afterEach(async () => {
  await redis.cleanup();
});

const DAY = 86_400_000;
const keys = () => new Keys(`{${redis.prefix}}`);
/**
 * A hang guard for tests that run several whole imports in process: on a machine loaded by other
 * test runs, one import takes seconds.
 */
const IMPORTS_GUARD_MS = 120_000;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** An installation (a data folder of its own) on the test's Redis and the sandbox. */
async function installation(name: string) {
  const dataDir = await tempDir(`${name}-`);
  return { dataDir, env: importerEnv({ redis, apiUrl: sandbox.url, dataDir }) };
}

/** Three rows from `first` imported by `import`; their summary. */
async function imported(env: Record<string, string>, first: number) {
  const dir = await tempDir('purge-edge-sheet-');
  const path = await writeCsvSheet(
    dir,
    'people.csv',
    [0, 1, 2].map((i) => sheetRow(first + i)),
  );
  const finished = await runInProcess(['import', '--json', path], env);
  expect(finished.code, finished.stderr).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Array<Summary & { reportDir: string }>;
  if (summary === undefined) throw new Error('no summary');
  return summary;
}

async function recordOf(sheetId: string): Promise<Record<string, string>> {
  return redis.client.hgetall(keys().sheet(sheetId));
}

/** Watch's daily pass of the installation at `dataDir`, 31 days on, keeping 30. */
async function passOf(dataDir: string, sheetId: string, client: Redis): Promise<RetentionPass> {
  const record = await recordOf(sheetId);
  return {
    redis: client,
    keys: keys(),
    folders: foldersOf({
      reportsDir: join(dataDir, 'reports'),
      archiveDir: join(dataDir, 'archive'),
      workDir: join(dataDir, 'work'),
      dataDir,
    }),
    connectionIds: [record.connectionId ?? ''],
    installation: record.installation ?? '',
    retentionDays: 30,
    language: 'en',
    now: () => Date.now() + 31 * DAY,
    announce: () => undefined,
    failed: (error: unknown) => {
      throw error;
    },
  };
}

/** The Redis client with its `zrangebyscore` held until `release` is called. */
function heldClient(client: Redis) {
  let entered = (): void => undefined;
  let release = (): void => undefined;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = new Proxy(client, {
    get(target, property) {
      if (property === 'zrangebyscore')
        return async (...args: Parameters<Redis['zrangebyscore']>) => {
          entered();
          await released;
          return target.zrangebyscore(...args);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { held, inside, release };
}

describe(
  "watch's daily pass, two installations on one Redis and prefix",
  { timeout: IMPORTS_GUARD_MS },
  () => {
    it('runs for each while the other’s runs; one installation’s processes, one at a time', async () => {
      const a = await installation('pass-a');
      const b = await installation('pass-b');
      const ofA = await imported(a.env, 8100);
      const ofB = await imported(b.env, 8200);
      const passA = await passOf(a.dataDir, ofA.sheetId, redis.client);
      const passB = await passOf(b.dataDir, ofB.sheetId, redis.client);
      expect(passA.installation).not.toBe(passB.installation);

      // A's pass under way (held after taking its lock) ...
      const gate = heldClient(redis.client);
      const runningA = retentionPass({ ...passA, redis: gate.held });
      await gate.inside;
      // ... another process of A's waits for it, but B's pass is B's own.
      expect(await retentionPass(passA)).toBeUndefined();
      const ofBGone = await retentionPass(passB);
      gate.release();
      expect(ofBGone?.map((s) => s.sheetId)).toEqual([ofB.sheetId]);
      expect((await runningA)?.map((s) => s.sheetId)).toEqual([ofA.sheetId]);
      expect(await exists(ofA.reportDir)).toBe(false);
      expect(await exists(ofB.reportDir)).toBe(false);
    });
  },
);

describe('a purge cut short', { timeout: IMPORTS_GUARD_MS }, () => {
  it('is finished by the next purge or pass, whatever its date, and by no other installation', async () => {
    const mine = await installation('cut-mine');
    const other = await installation('cut-other');
    const summary = await imported(mine.env, 8300);
    const theirs = await imported(other.env, 8400);
    // A purge of each installation withdrew its sheet, then stopped (a kill, a crash).
    await withdrawSheet(redis.client, keys(), summary.sheetId);
    await withdrawSheet(redis.client, keys(), theirs.sheetId);

    // The next is watch's pass with RETENTION_DAYS, or a purge of an earlier date.
    const past = await runInProcess(['purge', '--before', '2020-01-01'], mine.env);
    expect(past.code, past.stderr).toBe(0);
    expect(past.stdout).toContain(`Removed sheet people.csv (${summary.sheetId}`);
    expect(await exists(summary.reportDir)).toBe(false);
    expect(await redis.client.exists(...sheetKeys(keys(), summary.sheetId))).toBe(0);
    // Another installation's stays withdrawn, whole, for its own purge to finish.
    expect(await exists(theirs.reportDir)).toBe(true);
    expect(await redis.client.sismember(keys().purging, theirs.sheetId)).toBe(1);
    const theirsDone = await runInProcess(['purge', '--before', '2020-01-01'], other.env);
    expect(theirsDone.stdout).toContain(`Removed sheet people.csv (${theirs.sheetId}`);
    expect(await redis.client.scard(keys().purging)).toBe(0);
  });
});

describe(
  'a sheet recorded by an older version, naming no installation',
  { timeout: IMPORTS_GUARD_MS },
  () => {
    it('is purged by the installation whose REPORTS_DIR holds its report, by no other', async () => {
      const mine = await installation('legacy-mine');
      const other = await installation('legacy-other');
      const theirs = await imported(other.env, 8500);
      await redis.client.hdel(keys().sheet(theirs.sheetId), 'installation', 'dataDir');
      const now = new Date().toISOString();
      const notMine = await runInProcess(['purge', '--before', now], mine.env);
      expect(notMine.code, notMine.stderr).toBe(0);
      expect(notMine.stdout).toMatch(/Removed 0 sheets/);
      expect(await redis.client.exists(keys().sheet(theirs.sheetId))).toBe(1);
      expect(await redis.client.zscore(keys().allSheets, theirs.sheetId)).not.toBeNull();

      const own = await runInProcess(['purge', '--before', now], other.env);
      expect(own.stdout).toContain(`Removed sheet people.csv (${theirs.sheetId}`);
      expect(await exists(theirs.reportDir)).toBe(false);
    });
  },
);

describe('purge --before', { timeout: IMPORTS_GUARD_MS }, () => {
  it.each(['2026-02-30', '2025-02-29', '2026-04-31', '2026-02-29T10:00', '2025-01-31T24:00Z'])(
    'refuses %s, a day or time no calendar has, removing nothing',
    async (date) => {
      const mine = await installation('date-bad');
      const refused = await runInProcess(['purge', '--before', date], mine.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `order-importer: order-importer purge --before ${date}: not a date (write it as 2025-01-31).\n`,
      );
    },
  );

  it('refuses a date after now (a typo would remove everything), in the person’s language', async () => {
    const mine = await installation('date-future');
    const summary = await imported(mine.env, 8600);
    for (const date of ['2999-01-01', new Date(Date.now() + 3_600_000).toISOString()]) {
      const refused = await runInProcess(['purge', '--before', date], mine.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(`^order-importer: order-importer purge --before ${date}: after now\\b.*\\n$`),
      );
    }
    const nl = await runInProcess(
      ['purge', '--before', '2999-01-01', '--language', 'nl'],
      mine.env,
    );
    expect(nl.stderr).toContain('na nu');
    const fr = await runInProcess(
      ['purge', '--before', '2999-01-01', '--language', 'fr'],
      mine.env,
    );
    expect(fr.stderr).toContain('postérieure à maintenant');
    expect(await exists(summary.reportDir)).toBe(true);
    expect(await redis.client.exists(keys().sheet(summary.sheetId))).toBe(1);
  });

  it('reads a time without a zone in UTC, as it reads a day (midnight UTC)', async () => {
    const mine = await installation('date-zone');
    const zone = process.env.TZ;
    // A machine whose local time is not UTC (nor Belgium's, in which the lines say times).
    process.env.TZ = 'America/New_York';
    try {
      const day = await runInProcess(['purge', '--before', '2025-01-31', '--dry-run'], mine.env);
      const time = await runInProcess(
        ['purge', '--before', '2025-01-31T10:00', '--dry-run'],
        mine.env,
      );
      expect(day.stdout).toMatch(/reported before 31 Jan 2025, 01:00;/);
      expect(time.stdout).toMatch(/reported before 31 Jan 2025, 11:00;/);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

/** Every value under the test's prefix as text: strings, hashes, lists, sets, sorted sets, streams. */
async function everythingIn(client: Redis, prefix: string): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of found) {
      const type = await client.type(key);
      const value: unknown =
        type === 'string'
          ? await client.get(key)
          : type === 'hash'
            ? await client.hgetall(key)
            : type === 'list'
              ? await client.lrange(key, 0, -1)
              : type === 'set'
                ? await client.smembers(key)
                : type === 'zset'
                  ? await client.zrange(key, 0, -1)
                  : type === 'stream'
                    ? await client.xrange(key, '-', '+')
                    : type;
      all.set(key, JSON.stringify(value));
    }
  } while (cursor !== '0');
  return all;
}

describe('a sheet purged', { timeout: IMPORTS_GUARD_MS }, () => {
  it('leaves nothing of a person in Redis: not in its notifications either', async () => {
    const hook = await webhookReceiver();
    try {
      const mine = await installation('people-gone');
      const env = { ...mine.env, NOTIFY_WEBHOOK_URL: hook.url };
      const summary = await imported(env, 8700);
      const report = await readFile(join(summary.reportDir, 'report.csv'), 'utf8');
      const [first] = parse<Record<string, string>>(report, {
        bom: true,
        delimiter: ';',
        columns: true,
      });
      sandboxDb
        .prepare("UPDATE orders SET status = 'planned' WHERE id = ?")
        .run(Number(first?.order_id));
      const status = await runInProcess(['status', '--json', summary.sheetId], env);
      expect(status.code, status.stderr).toBe(0);
      const told = hook.received.map((r) => r.body).join('\n');
      expect(told).toContain('Kerkstraat 8700, 9000 Gent');

      const purged = await runInProcess(['purge', '--before', new Date().toISOString()], env);
      expect(purged.code, purged.stderr).toBe(0);
      const left = [...(await everythingIn(redis.client, redis.prefix))].filter(([, value]) =>
        /Kerkstraat|Contact 87|c87\d\d@/.test(value),
      );
      expect(left.map(([key]) => key)).toEqual([]);
    } finally {
      await hook.close();
    }
  });
});

/** The record of creates of a sheet, its creates said sent `days` days ago. */
async function sentDaysAgo(dataDir: string, sheetId: string, days: number): Promise<void> {
  const path = join(dataDir, 'creates', `${sheetId}.ndjson`);
  const sentAt = new Date(Date.now() - days * DAY).toISOString();
  const lines = (await readFile(path, 'utf8')).trim().split('\n');
  const aged = lines.map((line) => {
    const entry = JSON.parse(line) as { s?: string };
    return JSON.stringify(entry.s === undefined ? entry : { ...entry, s: sentAt });
  });
  await writeFile(path, `${aged.join('\n')}\n`);
}

describe(
  'the ledger rebuilt after purged sheets, by a Redis that forgot',
  { timeout: IMPORTS_GUARD_MS },
  () => {
    it('keeps each row LEDGER_DAYS from when its create was sent, no longer', async () => {
      const mine = await installation('rebuilt');
      const env = { ...mine.env, LEDGER_DAYS: '400' };
      const old = await imported(env, 8800);
      const recent = await imported(env, 8900);
      await sentDaysAgo(mine.dataDir, old.sheetId, 500);
      await sentDaysAgo(mine.dataDir, recent.sheetId, 300);
      const purged = await runInProcess(['purge', '--before', new Date().toISOString()], env);
      expect(purged.stdout).toMatch(/Removed 2 sheets/);
      // Redis comes back without this prefix's data: its ledger is rebuilt from what is on disk.
      await deleteKeys(redis.client, `*${redis.prefix}*`);
      const rebuilt = await runInProcess(['ledger', 'rebuild'], env);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);

      const connectionId = old.connection.id;
      const key = (n: number) => referenceKey(connectionId, `R-${n}`);
      const ledger = (inDays: number) =>
        new Ledger(redis.client, keys(), {
          connectionId,
          ledgerDays: 400,
          now: () => Date.now() + inDays * DAY,
        });
      // Sent 500 days ago: forgotten, as it was before Redis forgot.
      expect(await ledger(0).lookup(key(8800))).toBeUndefined();
      // Sent 300 days ago: remembered for the hundred days it had left, not for 400 more.
      expect(await ledger(0).lookup(key(8900))).toMatchObject({ state: 'created' });
      expect(await ledger(99).lookup(key(8900))).toMatchObject({ state: 'created' });
      expect(await ledger(102).lookup(key(8900))).toBeUndefined();
    });
  },
);
