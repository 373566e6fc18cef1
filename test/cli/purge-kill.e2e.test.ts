/**
 * A purge killed half-way (docs/design.md "Operations", "Retention"): the built `order-importer
 * purge` is killed with SIGKILL while it removes a sheet's files (a report folder of many files
 * makes that take a while). What it leaves is never half shown — the sheet is off every list, the
 * dashboard answers its pages — and the next run finishes it, even one given an earlier date (as
 * watch's RETENTION_DAYS pass is): files and records gone, rows dropped again still duplicates.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import type { Summary } from '../../src/report/report.js';
import { Keys } from '../../src/store/keys.js';
import { sheetKeys } from '../../src/store/sheet-purge.js';
import { importerEnv, InProcessCli, orderImporter, runInProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

const keys = () => new Keys(`{${redis.prefix}}`);

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Many small files in the report folder: removing them takes long enough to be killed in. */
async function pad(reportDir: string, files: number): Promise<void> {
  const dir = join(reportDir, 'padding');
  await mkdir(dir);
  for (let i = 0; i < files; i += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, files - i) }, (_, k) =>
        writeFile(join(dir, `f${i + k}`), 'x'),
      ),
    );
}

async function imported(env: Record<string, string>, name: string, first: number) {
  const path = await writeCsvSheet(await tempDir('purge-kill-sheet-'), name, [
    sheetRow(first),
    sheetRow(first + 1),
  ]);
  const finished = await runInProcess(['import', '--json', path], env);
  expect(finished.code, finished.stderr).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Array<Summary & { reportDir: string }>;
  if (summary === undefined) throw new Error('no summary');
  return { summary, path };
}

/** The first sheet the purge has withdrawn, looked for as often as Redis answers. */
async function firstWithdrawn(done: () => boolean): Promise<string | undefined> {
  const deadline = Date.now() + 60_000;
  while (!done() && Date.now() < deadline) {
    const [sheetId] = await redis.client.smembers(keys().purging);
    if (sheetId !== undefined) return sheetId;
  }
  return undefined;
}

async function statusOf(url: string): Promise<number> {
  const answer = await fetch(url);
  await answer.arrayBuffer();
  return answer.status;
}

describe('order-importer purge killed half-way', () => {
  it('leaves nothing half shown, and the next run, of any date, finishes it', async () => {
    const dataDir = await tempDir('purge-kill-');
    const env = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
    const first = await imported(env, 'first.csv', 9100);
    const second = await imported(env, 'second.csv', 9200);
    for (const { summary } of [first, second]) await pad(summary.reportDir, 12_000);
    const orders = (await sandbox.api.listOrders()).length;

    const purge = orderImporter(['purge', '--before', new Date().toISOString()], env);
    let ended = false;
    void purge.finished.then(() => (ended = true));
    const withdrawn = await firstWithdrawn(() => ended);
    purge.signal('SIGKILL');
    const killed = await purge.finished;
    expect(killed.signal, `not killed half-way: ${killed.stdout}${killed.stderr}`).toBe('SIGKILL');
    if (withdrawn === undefined) throw new Error('no sheet was withdrawn');
    const half = [first, second].find(({ summary }) => summary.sheetId === withdrawn);
    if (half === undefined) throw new Error(`withdrew ${withdrawn}, not one of the test's`);

    // Half way: off every list, its record still there, its files partly gone.
    expect(await redis.client.zscore(keys().allSheets, withdrawn)).toBeNull();
    expect(await redis.client.exists(keys().sheet(withdrawn))).toBe(1);

    // The dashboard answers, and shows it nowhere.
    const port = await freePort();
    const board = new InProcessCli(['dashboard'], { ...env, DASHBOARD_PORT: String(port) });
    try {
      await board.waitForStderr(/Press Ctrl\+C|Ctrl-C|stop/i);
      const url = `http://127.0.0.1:${port}`;
      const listed = (await (await fetch(`${url}/api/imports`)).json()) as {
        imports: Array<{ sheetId: string }>;
      };
      expect(listed.imports.map((s) => s.sheetId)).not.toContain(withdrawn);
      const overview = await fetch(`${url}/`);
      expect(overview.status).toBe(200);
      expect(await overview.text()).not.toContain(withdrawn);
      expect(await statusOf(`${url}/sheets/${withdrawn}`)).toBe(404);
      expect(await statusOf(`${url}/reports/${withdrawn}/report.csv`)).toBe(404);
      expect(await statusOf(`${url}/search?q=Kerkstraat`)).toBe(200);
    } finally {
      board.stop();
      expect((await board.finished).code).toBe(0);
    }

    // The next run is of an earlier date (watch's pass keeps RETENTION_DAYS): it finishes it.
    const next = await runInProcess(['purge', '--before', '2020-01-01'], env);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain(`(${withdrawn},`);
    expect(await exists(half.summary.reportDir)).toBe(false);
    expect(await exists(join(dataDir, 'sheets', withdrawn))).toBe(false);
    expect(await redis.client.exists(...sheetKeys(keys(), withdrawn))).toBe(0);
    expect(await redis.client.scard(keys().purging)).toBe(0);

    const again = await runInProcess(['import', '--json', half.path], env);
    const [summary] = JSON.parse(again.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 2, duplicate: 2, created: 0 });
    expect(await sandbox.api.listOrders()).toHaveLength(orders);
  }, 120_000);
});
