/**
 * Many offices in one `watch` (docs/design.md "Operations" — "Many offices"): its Redis
 * connections stay under 64 whatever the number of offices, its workers run only while their
 * queues have work, and the rows of an office whose workers were asleep are still done — queued
 * by this watch (a sheet in its inbox) or by another process (`import --no-workers`). Against a
 * redis-server of its own, so that every client of it but the test's is the watch's, and a
 * sandbox that knows every office's token, each of its own organisation.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { ApiClient } from '../helpers/api.js';
import { InProcessCli } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const OFFICES = 40;
/** docs/design.md: ≤ 64 Redis connections whatever the number of offices. */
const MOST_CONNECTIONS = 64;
const PREFIX = '{many-offices}';
const token = (i: number) => `token-office-${i}`;

let redisDir: string;
let server: LocalRedis;
let redis: Redis;
let sandbox: TestSandbox;
beforeAll(async () => {
  redisDir = await mkdtemp(join(tmpdir(), 'many-offices-redis-'));
  server = await startLocalRedis({ dir: redisDir });
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  sandbox = await testSandbox({
    tokens: Array.from({ length: OFFICES }, (_, i) => ({ token: token(i), org: `org-${i}` })),
  });
});
afterAll(async () => {
  redis.disconnect();
  await sandbox.close();
  await server.stop();
  await rm(redisDir, { recursive: true, force: true });
});

/** The clients of the server but the test's own: each is a connection of the watch. */
async function clients(): Promise<string[]> {
  const list = (await redis.client('LIST')) as string;
  const own = String(await redis.client('ID'));
  return list.split('\n').filter((line) => line.trim() !== '' && !line.startsWith(`id=${own} `));
}

/** A worker's blocking connection is named for its queue, under the prefix (BullMQ's naming). */
const workerConnections = (list: readonly string[]) =>
  list.filter((line) => line.includes(`name=${PREFIX}:`));

/** The most connections seen while it runs, sampled until `stop`. */
function sampled() {
  const seen = { most: 0, running: true };
  const loop = (async () => {
    while (seen.running) {
      seen.most = Math.max(seen.most, (await clients()).length);
      await sleep(100);
    }
  })();
  return {
    most: () => seen.most,
    stop: async () => {
      seen.running = false;
      await loop;
    },
  };
}

async function waitUntil(what: string, done: () => Promise<boolean>, cli: InProcessCli) {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}\n${cli.stderr}`);
    await sleep(100);
  }
}

/** The installation: a token file, a connection and an inbox subfolder per office. */
async function installation() {
  const dir = await tempDir('many-offices-');
  const connections = [];
  for (let i = 0; i < OFFICES; i++) {
    await put(dir, `secrets/office-${i}.token`, `${token(i)}\n`);
    connections.push({
      name: `office-${i}`,
      apiBaseUrl: sandbox.url,
      tokenFile: `secrets/office-${i}.token`,
      inbox: `office-${i}`,
    });
  }
  const config = await put(dir, 'importer.json', JSON.stringify({ connections }));
  const dataDir = join(dir, 'data');
  const env = {
    REDIS_URL: server.url,
    QUEUE_PREFIX: PREFIX,
    DATA_DIR: dataDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  };
  return { dir, config, dataDir, env };
}

/** The rows created in the report of the sheet named `name`, once it is written. */
async function createdIn(reportsDir: string, name: string, cli: InProcessCli): Promise<number> {
  let created = -1;
  await waitUntil(
    `a report of ${name}`,
    async () => {
      const dirs = (await readdir(reportsDir).catch(() => [])).filter((d) => d.startsWith(name));
      const [dir] = dirs;
      if (dir === undefined) return false;
      const text = await readFile(join(reportsDir, dir, 'summary.json'), 'utf8').catch(() => '');
      if (text === '') return false;
      created = (JSON.parse(text) as { created: number }).created;
      return true;
    },
    cli,
  );
  return created;
}

describe(`one watch serving ${OFFICES} offices`, () => {
  it('keeps its Redis connections under the cap, and works an office whose workers slept', async () => {
    const office = await installation();
    const watch = new InProcessCli(['watch', '--no-dashboard', '--config', office.config], {
      ...office.env,
    });
    const connections = sampled();
    try {
      await watch.waitForStderr(/Watching /, 120_000);
      // Nothing queued: no worker runs, whatever the number of offices.
      await waitUntil(
        'no worker running',
        async () => workerConnections(await clients()).length === 0,
        watch,
      );

      // Queued by this watch: a sheet dropped into office 7's inbox.
      await writeCsvSheet(join(office.dataDir, 'inbox', 'office-7'), 'seven.csv', [
        sheetRow(700),
        sheetRow(701),
        sheetRow(702),
      ]);
      expect(await createdIn(join(office.dataDir, 'reports'), 'seven', watch)).toBe(3);
      expect(await new ApiClient(sandbox.url, token(7)).listOrders()).toHaveLength(3);

      // Queued by another process, which rings no bell here: the doorbell's look finds it.
      const sheet = await writeCsvSheet(await tempDir('many-offices-sheet-'), 'thirty.csv', [
        sheetRow(3000),
        sheetRow(3001),
      ]);
      const other = new InProcessCli(
        ['import', '--no-workers', '--config', office.config, '--connection', 'office-30', sheet],
        office.env,
      );
      const imported = await other.finished;
      expect(imported.code, imported.stderr).toBe(0);
      expect(await createdIn(join(office.dataDir, 'reports'), 'thirty', watch)).toBe(2);
      expect(await new ApiClient(sandbox.url, token(30)).listOrders()).toHaveLength(2);
      // No other office's organisation got a row.
      expect(await new ApiClient(sandbox.url, token(8)).listOrders()).toHaveLength(0);

      // Its workers close again once their queues are empty.
      await waitUntil(
        'the workers closed again',
        async () => workerConnections(await clients()).length === 0,
        watch,
      );
    } finally {
      watch.stop('SIGTERM');
      const finished = await watch.finished;
      await connections.stop();
      expect(finished.code, finished.stderr).toBe(0);
    }
    expect(connections.most()).toBeLessThanOrEqual(MOST_CONNECTIONS);
  }, 240_000);
});
