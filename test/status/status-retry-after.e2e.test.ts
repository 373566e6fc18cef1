/**
 * One GET answered `429, Retry-After: 100000` (a proxy's maintenance page, a broken throttle) does
 * not hold `status` silently for 28 hours, nor the imports of its connection: the run ends with
 * that order (and any not read yet) kept as it was, says why and exits 2; the fleet's hold is
 * capped (MAX_WAIT_MS) and asked again after it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { orderImporter, runInProcess, importerEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type OrderProxy, orderProxy } from '../helpers/order-proxy.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let proxy: OrderProxy;
let dataDir: string;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox({ dataDir: await tempDir('review13-ra-sandbox-') });
  proxy = await orderProxy(sandbox.url);
  dataDir = await tempDir('review13-ra-data-');
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  await redis.cleanup();
});

const env = () => importerEnv({ redis, apiUrl: proxy.url, dataDir });

it('does not let one Retry-After of a day stop status without a word', async () => {
  const dir = await tempDir('review13-ra-sheet-');
  const done = await runInProcess(
    ['import', '--json', await writeCsvSheet(dir, 'orders.csv', [sheetRow(1)])],
    env(),
  );
  expect(done.code, done.stderr).toBe(0);
  const [summary] = JSON.parse(done.stdout) as Summary[];
  if (summary === undefined) throw new Error('no summary');
  const report = await readFile(join(summary.reportDir, 'report.csv'), 'utf8');
  const orderId = Number(/;created;(\d+);/.exec(report)?.[1]);
  proxy.faults.set(orderId, {
    status: 429,
    body: '{"message":"Too Many Attempts."}',
    headers: { 'retry-after': '100000' },
  });

  const status = orderImporter(['status', summary.sheetId], env());
  const outcome = await Promise.race([
    status.finished.then((exit) => `exit ${String(exit.code)}`),
    new Promise<string>((resolve) => {
      setTimeout(() => {
        resolve('still waiting after 90 s, silently');
      }, 90_000);
    }),
  ]);
  if (outcome.startsWith('still')) status.signal('SIGKILL');
  // Exit 2 (the order kept its previous line, the run says so), or at least a word on what it
  // waits for; not a silent wait of 28 hours.
  expect(outcome).toBe('exit 2');
}, 180_000);
