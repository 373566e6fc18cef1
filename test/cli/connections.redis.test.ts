/**
 * Connections (docs/design.md, "Connections"): a row is only ever sent with its own connection's URL and token,
 * whatever processes share the Redis; one API spelt three ways is one connection; credentials in
 * the URL are refused.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { ApiClient } from '../helpers/api.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let dataDir: string;
const sandboxes: TestSandbox[] = [];
beforeAll(async () => {
  redis = await useTestRedis();
  dataDir = await tempDir('connections-e2e-');
});
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  await redis.cleanup();
});

async function sandbox(options: Parameters<typeof testSandbox>[0] = {}): Promise<TestSandbox> {
  const started = await testSandbox(options);
  sandboxes.push(started);
  return started;
}

function env(apiBaseUrl: string, token: string, extra: Record<string, string> = {}) {
  return {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: apiBaseUrl,
    API_TOKEN: token,
    DATA_DIR: dataDir,
    RETRY_DELAY_MS: '50',
    ...extra,
  };
}

async function sheetOf(name: string, from: number, count: number): Promise<string> {
  const dir = await tempDir('sheet-');
  const rows = Array.from({ length: count }, (_, i) => sheetRow(from + i));
  return writeCsvSheet(dir, name, rows);
}

async function stop(worker: InProcessCli): Promise<void> {
  worker.stop('SIGTERM');
  const finished = await worker.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

describe('connections', () => {
  it('imports a sheet once whatever way its API URL is spelt', async () => {
    const api = await sandbox();
    const port = new URL(api.url).port;
    const path = await sheetOf('spellings.csv', 3000, 12);
    const spellings = [
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `HTTP://LOCALHOST:${port}`,
    ];
    const summaries: Summary[] = [];
    for (const spelling of spellings) {
      const finished = await runInProcess(
        ['import', '--json', path],
        env(spelling, 'sandbox-demo-token'),
      );
      expect(finished.code, finished.stderr).toBe(0);
      summaries.push(...(JSON.parse(finished.stdout) as Summary[]));
    }
    expect(await api.api.listOrders()).toHaveLength(12);
    expect(summaries.map((s) => [s.created, s.duplicate])).toEqual([
      [12, 0],
      [0, 12],
      [0, 12],
    ]);
    expect(summaries[1]?.duplicateOf).toBe(summaries[0]?.sheetId);
  });

  it('refuses an API URL that holds credentials, and writes them nowhere', async () => {
    const api = await sandbox();
    const withCredentials = api.url.replace('http://', 'http://agent:s3cret-pw@');
    const path = await sheetOf('credentials.csv', 3100, 1);
    const finished = await runInProcess(
      ['import', path],
      env(withCredentials, 'sandbox-demo-token'),
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/API_BASE_URL/);
    expect(finished.stderr + finished.stdout).not.toContain('s3cret-pw');
    expect(await api.api.listOrders()).toHaveLength(0);
  });

  it('never sends a row with another connection’s URL: a worker of API A beside an import for API B', async () => {
    const a = await sandbox();
    const b = await sandbox({ faults: { latencyMs: 30 } });
    const worker = new InProcessCli(
      ['worker'],
      env(a.url, 'sandbox-demo-token', { CONCURRENCY: '8' }),
    );
    await worker.waitForStderr(/Worker ready/);
    try {
      const path = await sheetOf('to-b.csv', 3200, 40);
      const finished = await runInProcess(
        ['import', '--json', path],
        env(b.url, 'sandbox-demo-token', { CONCURRENCY: '2' }),
      );
      expect(finished.code, finished.stderr).toBe(0);
      const [summary] = JSON.parse(finished.stdout) as Summary[];
      expect(summary).toMatchObject({ created: 40, apiBaseUrl: b.url });
      expect(await b.api.listOrders()).toHaveLength(40);
      expect(await a.api.listOrders()).toHaveLength(0);
    } finally {
      await stop(worker);
    }
  });

  it('never sends a row with another organisation’s token on the same API', async () => {
    const api = await sandbox({
      faults: { latencyMs: 30 },
      tokens: [
        { token: 'token-gent', org: 'gent' },
        { token: 'token-brugge', org: 'brugge' },
      ],
    });
    const asGent = new ApiClient(api.url, 'token-gent');
    const asBrugge = new ApiClient(api.url, 'token-brugge');
    const worker = new InProcessCli(['worker'], env(api.url, 'token-gent', { CONCURRENCY: '8' }));
    await worker.waitForStderr(/Worker ready/);
    try {
      const path = await sheetOf('brugge.csv', 3300, 30);
      const finished = await runInProcess(
        ['import', '--json', path],
        env(api.url, 'token-brugge', { CONCURRENCY: '2' }),
      );
      expect(finished.code, finished.stderr).toBe(0);
      const [summary] = JSON.parse(finished.stdout) as Summary[];
      expect(summary?.created).toBe(30);
      expect(await asBrugge.listOrders()).toHaveLength(30);
      expect(await asGent.listOrders()).toHaveLength(0);
      const report = await readFile(join(summary?.reportDir ?? '', 'report.csv'), 'utf8');
      expect(report).not.toContain('token-brugge');
    } finally {
      await stop(worker);
    }
  });
});
