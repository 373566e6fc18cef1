/**
 * A Sentinel set that cannot be used, at start (docs/operations.md, "Redis in production"): a
 * master name the sentinels do not know, or no sentinel that answers (nothing listening, or a
 * sentinel frozen), is one plain line from the catalogue and exit 1 — for every command that uses
 * Redis, within a bounded time, never a hang, never a stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { orderImporter } from '../helpers/cli.js';
import { endsWithin } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { stopAll } from '../helpers/redis-servers.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { type SentinelSet, startSentinelSet } from '../helpers/sentinel.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

/** Every command that uses Redis, as a person would start it. */
const COMMANDS: ReadonlyArray<readonly string[]> = [
  ['import', 'SHEET'],
  ['watch', '--no-dashboard'],
  ['worker'],
  ['status'],
  ['dashboard'],
  ['purge', '--before', '2020-01-01', '--dry-run'],
  ['ledger', 'rebuild'],
];

let set: SentinelSet;
let sandbox: TestSandbox;
let sheet: string;
/** A data folder with a sheet reported (imported through the set): `status` reads it back. */
let reported: string;
beforeAll(async () => {
  set = await startSentinelSet({ sentinels: 2, replicas: 0 });
  sandbox = await testSandbox();
  sheet = await writeCsvSheet(await tempDir('sentinel-start-'), 'orders.csv', [sheetRow(1)]);
  reported = await tempDir('sentinel-start-reported-');
  const imported = await endsWithin(
    orderImporter(['import', sheet], {
      REDIS_URL: set.url,
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: reported,
    }),
    25_000,
  );
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await sandbox.close();
  await stopAll();
});

/** A command run with this REDIS_URL: its exit, within `withinMs`. */
async function run(command: readonly string[], redisUrl: string, env: NodeJS.ProcessEnv = {}) {
  const cli = orderImporter(
    command.map((arg) => (arg === 'SHEET' ? sheet : arg)),
    {
      REDIS_URL: redisUrl,
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: command[0] === 'status' ? reported : await tempDir('sentinel-start-data-'),
      DASHBOARD_PORT: '0',
      LANGUAGE: 'en',
      ...env,
    },
  );
  return endsWithin(cli, 25_000);
}

/** What a command said: exit 1, nothing on stdout, one line on stderr, no stack. */
function oneLine(exit: Awaited<ReturnType<typeof run>>): string {
  expect(exit.code, exit.stderr).toBe(1);
  expect(exit.stdout).toBe('');
  const lines = exit.stderr.trimEnd().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('a master name the sentinels do not know', () => {
  it.each(COMMANDS.map((command) => [command.join(' '), command] as const))(
    '%s: one line, exit 1',
    async (_, command) => {
      const url = set.url.replace(/\/orders$/, '/ordres');
      const line = oneLine(await run(command, url));
      expect(line).toBe(
        `order-importer: REDIS_URL ${url}: the sentinels know no master named "ordres" (they watch: orders): end REDIS_URL with the name their \`sentinel monitor\` gives it.`,
      );
    },
    30_000,
  );

  it('is said in Dutch and French too', async () => {
    const url = set.url.replace(/\/orders$/, '/ordres');
    expect(oneLine(await run(['worker'], url, { LANGUAGE: 'nl' }))).toMatch(
      /^order-importer: REDIS_URL \S+: de sentinels kennen geen master met de naam “ordres” \(ze bewaken: orders\)/,
    );
    expect(oneLine(await run(['worker'], url, { LANGUAGE: 'fr' }))).toMatch(
      /^order-importer: REDIS_URL \S+\u202f: les sentinelles ne connaissent aucun maître nommé «\u202fordres\u202f»/,
    );
  }, 30_000);
});

describe('sentinels that ask for a password of their own (requirepass)', () => {
  it('are asked with the password of REDIS_URL, and the import goes through them', async () => {
    const password = 'S3ntinel-Pa55word';
    const guarded = await startSentinelSet({
      name: 'guarded',
      sentinels: 2,
      replicas: 0,
      user: { name: 'importer', password },
      sentinelPassword: password,
    });
    const exit = await run(['import', 'SHEET'], guarded.url, { LOG_LEVEL: 'trace' });
    expect(exit.code, exit.stderr.slice(-2000)).toBe(0);
    expect(`${exit.stdout}${exit.stderr}`).not.toContain(password);
    // A wrong one is refused by the sentinels: one line, exit 1.
    const wrong = guarded.url.replace(password, 'not-the-password');
    expect(oneLine(await run(['worker'], wrong))).toMatch(
      /^order-importer: REDIS_URL redis\+sentinel:\/\/importer:\*\*\*@\S+: Redis refused the user and password \(WRONGPASS/,
    );
    await guarded.stop();
  }, 60_000);
});

describe('no sentinel that answers', () => {
  it.each(COMMANDS.map((command) => [command.join(' '), command] as const))(
    '%s, nothing listening: one line, exit 1',
    async (_, command) => {
      const url = `redis+sentinel://127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}/orders`;
      const line = oneLine(await run(command, url));
      expect(line).toMatch(
        /^order-importer: REDIS_URL redis\+sentinel:\/\/\S+: no sentinel answers \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): start the sentinels, or check their hosts and ports in REDIS_URL\.$/,
      );
    },
    30_000,
  );

  it('every sentinel frozen (taking connections, never answering): one line within bounds', async () => {
    for (const sentinel of set.sentinels) sentinel.process.kill('SIGSTOP');
    try {
      const started = Date.now();
      const line = oneLine(await run(['import', 'SHEET'], set.url));
      expect(line).toMatch(/: no sentinel answers \((Command timed out|no answer within)/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const sentinel of set.sentinels) sentinel.process.kill('SIGCONT');
    }
  }, 30_000);
});
