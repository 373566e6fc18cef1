/**
 * Offices take turns at the API's limit (docs/design.md "Operations", "Fair turns"): one worker
 * process serving two offices, assembled as `worker` assembles it (two connections in its config
 * file, one Redis), a sandbox over HTTP that knows both tokens and allows each 60 requests per
 * window. A big import of office A does not hold office B's small sheet: B's is done within one
 * of A's windows of requests after it was dropped, and each office's pace stays at its own limit.
 */
import { join } from 'node:path';

import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { serviceStart } from '../../src/app/importer.js';
import { type RunningWorker, startWorker } from '../../src/app/worker.js';
import type { Context } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import { loadSettings } from '../../src/settings/load.js';
import { sheetProgress } from '../../src/store/progress.js';
import { eventually } from '../helpers/eventually.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const LIMIT = 60;
const WINDOW_MS = 6000;
const BIG = 10_000;
const SMALL = 5;
/** Rows of the big sheet waiting when the small one is dropped: thousands. */
const QUEUED = 2000;
/**
 * A guard against a hang, not a measure: files run side by side on a loaded machine, where a
 * 10,000-row sheet's intake alone may take a minute.
 */
const GUARD_MS = 150_000;

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const rows = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => sheetRow(i + 1, { reference: `${prefix}-${i + 1}` }));

/** Every answer an office's client hears, with its status. */
function answersOf(ctx: Context): number[] {
  const statuses: number[] = [];
  ctx.api.onAnswer((answer) => statuses.push(answer.status));
  return statuses;
}

/** A `worker` of offices A and B over the test's Redis and sandbox; its log lines into `logs`. */
async function workerOfTwoOffices(
  redis: TestRedis,
  sandbox: TestSandbox,
  logs: string[],
): Promise<RunningWorker> {
  const dir = await tempDir('two-offices-');
  await put(dir, 'a.token', 'token-a\n');
  await put(dir, 'b.token', 'token-b\n');
  const config = await put(
    dir,
    'importer.json',
    JSON.stringify({
      connections: [
        { name: 'a', apiBaseUrl: sandbox.url, tokenFile: 'a.token' },
        { name: 'b', apiBaseUrl: sandbox.url, tokenFile: 'b.token' },
      ],
    }),
  );
  const settings = await loadSettings({
    cwd: dir,
    configFile: config,
    env: {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `{${redis.prefix}}`,
      DATA_DIR: join(dir, 'data'),
      CONCURRENCY: '4',
      JOB_LOCK_MS: '2000',
      RETRY_DELAY_MS: '50',
    },
  });
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(line) });
  const start = serviceStart({ stopSignal: () => new Promise<string>(() => undefined) });
  const worker = await startWorker({ settings, logger, announce: () => undefined, start });
  closing.push(() => worker.close({ graceMs: 2000 }));
  return worker;
}

describe('two offices in one process at their API limits', () => {
  it(
    'a big import of office A does not hold office B’s small sheet',
    async () => {
      const redis = await useTestRedis();
      closing.push(() => redis.cleanup());
      const sandbox = await testSandbox({
        tokens: [
          { token: 'token-a', org: 'a' },
          { token: 'token-b', org: 'b' },
        ],
        rateLimit: LIMIT,
        rateWindowMs: WINDOW_MS,
      });
      closing.push(() => sandbox.close());
      const logs: string[] = [];
      const worker = await workerOfTwoOffices(redis, sandbox, logs);
      const [a, b] = worker.importers.all.map((importer) => importer.ctx);
      if (a === undefined || b === undefined) throw new Error('two offices expected');
      const heardA = answersOf(a);
      const heardB = answersOf(b);

      const dir = await tempDir('offices-sheets-');
      const big = await submitSheet(a, await writeCsvSheet(dir, 'big.csv', rows(BIG, 'A')));
      // Office A at its limit: its pace has learned the window (its first window is spent as it
      // comes), thousands of its rows waiting for their turn.
      const learned = () => logs.some((line) => line.includes('window is about'));
      await eventually(
        async () =>
          (learned() &&
            (await a.queues.rows.getJobCountByTypes('waiting', 'prioritized')) >= QUEUED) ||
          undefined,
        () => `office A's big sheet queued: ${heardA.length} requests so far`,
        GUARD_MS,
      );

      const dropped = heardA.length;
      const small = await submitSheet(b, await writeCsvSheet(dir, 'small.csv', rows(SMALL, 'B')));
      const done = await eventually(
        async () => {
          if ((await sheetProgress(b.store, small.sheetId))?.state === 'done') return true;
          return heardA.length - dropped > 3 * LIMIT ? false : undefined;
        },
        () => `office B's sheet after ${heardA.length - dropped} of office A's requests`,
        GUARD_MS,
      );
      const requestsOfA = heardA.length - dropped;
      expect(done, `${requestsOfA} of A's requests after it was dropped`).toBe(true);
      expect(requestsOfA).toBeLessThanOrEqual(LIMIT);
      expect(BIG - (await a.store.finalCount(big.sheetId))).toBeGreaterThan(1000);
      // Each office's pace kept to its own limit: a 429 at most to learn its window's end.
      expect(heardB.filter((status) => status === 429).length).toBeLessThanOrEqual(1);
      expect(heardA.filter((status) => status === 429).length).toBeLessThanOrEqual(2);
      expect(heardB.filter((status) => status === 201)).toHaveLength(SMALL);
    },
    3 * GUARD_MS,
  );
});
