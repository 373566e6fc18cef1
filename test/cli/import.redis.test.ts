import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { runInProcess, importerEnv } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  dataDir = await tempDir('import-e2e-');
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return importerEnv({ redis, apiUrl: sandbox.url, dataDir }, extra);
}

describe('order-importer import', () => {
  it('imports the samples, prints a summary and exits 0', async () => {
    const finished = await runInProcess(
      ['import', 'samples/orders.csv', 'samples/orders.ndjson'],
      env(),
    );
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toMatch(/samples\/orders\.csv\s+5\s+5\s+0\s+0\s+0\s+0/);
    expect(finished.stdout).toMatch(/Report: .*reports\/orders-/);
    // A sandbox of its own, not the embedded one: nothing to say about its planning.
    expect(finished.stdout + finished.stderr).not.toContain('plans these orders');
    const listed = await sandbox.api.listOrders();
    expect(listed).toHaveLength(10);
    expect(listed.flatMap((o) => o.files)).toHaveLength(12);
  });

  it('exits 2 with --json summaries when rows are invalid', async () => {
    const dir = await tempDir('mixed-');
    const path = await writeCsvSheet(dir, 'mixed.csv', [
      sheetRow(901),
      sheetRow(902, { city: '' }),
    ]);
    const finished = await runInProcess(['import', '--json', path], env());
    expect(finished.code, finished.stderr).toBe(2);
    const [summary] = JSON.parse(finished.stdout) as Summary[];
    expect(summary).toMatchObject({
      sheet: path,
      total: 2,
      created: 1,
      invalid: 1,
      sandbox: false,
      apiBaseUrl: sandbox.url,
    });
    expect(JSON.stringify(summary)).not.toContain('sandbox-demo-token');
    const failed = await readFile(join(summary?.reportDir ?? '', 'failed', 'mixed.csv'), 'utf8');
    expect(failed.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(
      /;order_id;source_row;error;source_sheet$/,
    );
  });

  it('stops at once with one line and exit 1 when the token is refused', async () => {
    const dir = await tempDir('token-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(950)]);
    const finished = await runInProcess(['import', path], env({ API_TOKEN: 'wrong' }));
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(
      /order-importer: The API at .* refused the token \(.*Unauthenticated\.\): check API_TOKEN/,
    );
    expect(finished.stderr).not.toContain('wrong');
  });

  it('exits 1 when the REDIS_URL it is given does not answer', async () => {
    const finished = await runInProcess(
      ['import', 'samples/orders.csv'],
      env({ REDIS_URL: 'redis://127.0.0.1:1' }),
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(
      /^order-importer: REDIS_URL redis:\/\/127\.0\.0\.1:1 does not answer/m,
    );
  });

  // The sheets are taken (copied and read once) while Redis and the API are connected to: an
  // import that cannot start keeps none of those copies.
  it.each([
    ['Redis does not answer', { REDIS_URL: 'redis://127.0.0.1:1' }],
    ['the token is refused', { API_TOKEN: 'wrong' }],
  ])('leaves no copy of its sheets behind when %s', async (_, broken) => {
    const dir = await tempDir('no-copy-');
    const sheets = [
      await writeCsvSheet(dir, 'first.csv', [sheetRow(970)]),
      await writeCsvSheet(dir, 'second.csv', [sheetRow(971)]),
    ];
    const ownData = join(dir, 'data');
    const finished = await runInProcess(['import', ...sheets], {
      ...env(broken),
      DATA_DIR: ownData,
    });
    expect(finished.code).toBe(1);
    const copies = await readdir(join(ownData, 'sheets')).catch(() => []);
    expect(copies).toEqual([]);
  });

  it('exits 1 for a sheet that does not exist', async () => {
    const finished = await runInProcess(['import', join(dataDir, 'none.csv')], env());
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/none\.csv does not exist/);
  });

  it('takes a new embedded sandbox (its data folder removed) for a new API, not for one that has its orders', async () => {
    const dir = await tempDir('fresh-sandbox-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(980), sheetRow(981)]);
    const { API_BASE_URL: _url, API_TOKEN: _token, ...rest } = env();
    const ownData = { ...rest, DATA_DIR: join(dir, 'data') };
    const first = await runInProcess(['import', '--json', path], ownData);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as Summary[])[0]).toMatchObject({ created: 2 });
    // Started over: the data folder, and with it the sandbox's orders, are gone.
    await rm(join(dir, 'data'), { recursive: true });
    const again = await runInProcess(['import', '--json', path], ownData);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Summary[])[0]).toMatchObject({ created: 2, duplicate: 0 });
    // The same sandbox still holding them: duplicates.
    const third = await runInProcess(['import', '--json', path], ownData);
    expect((JSON.parse(third.stdout) as Summary[])[0]).toMatchObject({ created: 0, duplicate: 2 });
  });

  it('uses the embedded sandbox when no API is set, and says so', async () => {
    const dir = await tempDir('embedded-');
    await put(dir, 'plan.pdf', '%PDF-1.4');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(960, { files: 'plan.pdf' })]);
    const { API_BASE_URL: _url, API_TOKEN: _token, ...rest } = env();
    const finished = await runInProcess(['import', '--json', path], rest);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toContain('orders go to the EMBEDDED SANDBOX');
    const [summary] = JSON.parse(finished.stdout) as Summary[];
    expect(summary).toMatchObject({ created: 1, sandbox: true });
    // The human output (stderr with --json) ends by saying when the orders get their plan.
    expect(finished.stderr).toContain(
      'The sandbox plans these orders 60 s after they are created: run `order-importer status` after that to see the dates and inspectors.\n',
    );
  });

  it('ends its summary with when the embedded sandbox plans the orders, unless it does not', async () => {
    const dir = await tempDir('embedded-planning-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(970)]);
    const { API_BASE_URL: _url, API_TOKEN: _token, ...rest } = env();
    const ownData = { ...rest, DATA_DIR: join(dir, 'data') };
    const planned = await runInProcess(['import', '--sandbox-planning', '30', path], ownData);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout.trimEnd().split('\n').at(-1)).toBe(
      'The sandbox plans these orders 30 s after they are created: run `order-importer status` after that to see the dates and inspectors.',
    );

    const again = await tempDir('embedded-unplanned-');
    const other = await writeCsvSheet(again, 'orders.csv', [sheetRow(971)]);
    const off = await runInProcess(['import', other], {
      ...rest,
      DATA_DIR: join(again, 'data'),
      SANDBOX_PLANNING_S: '0',
    });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout + off.stderr).not.toContain('plans these orders');
  });

  it('refuses a bad --sandbox-planning in one line', async () => {
    const finished = await runInProcess(
      ['import', '--sandbox-planning', 'soon', 'samples/orders.csv'],
      env(),
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr.trim()).toMatch(
      /^order-importer: --sandbox-planning: must be a number \(got "soon"\)\.$/,
    );
  });
});
