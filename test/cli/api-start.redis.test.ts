/**
 * The API check at start (docs/design.md, "Start-up, outages and the edges"): what is safe to retry is
 * waited out for up to API_WAIT_S, said on one line; a refused token stops at once. `import` in
 * process; a worker waiting for the API, stopped by signals, in api-start.e2e.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { InProcessCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type FlakyProxy, flakyProxy } from '../helpers/proxy.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
const proxies: FlakyProxy[] = [];
const running: InProcessCli[] = [];

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  dataDir = await tempDir('api-start-');
});
afterAll(async () => {
  for (const cli of running) {
    cli.stop('SIGTERM');
    await cli.finished;
  }
  await Promise.all(proxies.map((p) => p.close()));
  await sandbox.close();
  await redis.cleanup();
});

function env(apiBaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: apiBaseUrl,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    RETRY_DELAY_MS: '50',
    ...extra,
  };
}

async function proxy(options: { refuse?: number; port?: number } = {}): Promise<FlakyProxy> {
  const started = await flakyProxy({ target: sandbox.url, retryAfterS: 1, ...options });
  proxies.push(started);
  return started;
}

function cli(args: readonly string[], envs: Record<string, string>): InProcessCli {
  const started = new InProcessCli(args, envs);
  running.push(started);
  return started;
}

/** Lines of a stack trace, which come once per retry when an outage is not handled. */
function noise(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\s+at |"stack"|Unhandled error/.test(line));
}

describe('the API check at start', () => {
  it('waits out three 503s with Retry-After, says so on one line, and imports', async () => {
    const api = await proxy({ refuse: 3 });
    const path = await writeCsvSheet(await tempDir('s503-'), 'orders.csv', [sheetRow(1001)]);
    const finished = await cli(['import', path], env(api.url)).finished;
    expect(finished.code, finished.stderr).toBe(0);
    expect(api.received).toBeGreaterThanOrEqual(4);
    const waiting = finished.stderr.split('\n').filter((l) => /waiting/i.test(l));
    expect(waiting, finished.stderr).toHaveLength(1);
    expect(waiting[0]).toMatch(/API at http:\/\/127\.0\.0\.1:\d+ .*503.*API_WAIT_S/);
    expect(noise(finished.stderr)).toEqual([]);
    expect(finished.stdout).toMatch(/orders\.csv\s+1\s+1\s+0\s+0\s+0\s+0/);
  });

  it('waits for an API that is not listening yet and goes on once it is', async () => {
    const port = await freePort();
    const path = await writeCsvSheet(await tempDir('late-'), 'orders.csv', [sheetRow(1002)]);
    const importing = cli(['import', path], env(`http://127.0.0.1:${port}`));
    await importing.waitForStderr(/waiting/i, 20_000);
    await sleep(2000);
    await proxy({ port });
    const finished = await importing.finished;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toMatch(/ECONNREFUSED/);
    expect(finished.stderr).toMatch(/answers now/);
    expect(noise(finished.stderr)).toEqual([]);
  });

  it('stops at once on a refused token, without waiting', async () => {
    const path = await writeCsvSheet(await tempDir('token-'), 'orders.csv', [sheetRow(1003)]);
    const started = Date.now();
    const finished = await cli(
      ['import', path],
      env(sandbox.url, { API_TOKEN: 'wrong', API_WAIT_S: '60' }),
    ).finished;
    expect(finished.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(finished.stderr).toMatch(/refused the token/);
    expect(finished.stderr).not.toMatch(/waiting/i);
  });

  it('refuses a token file with a line break inside the token at once, as a bad setting, sending nothing', async () => {
    const api = await proxy();
    const dir = await tempDir('token-break-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1005)]);
    const tokenFile = join(dir, 'token.txt');
    await writeFile(tokenFile, 'T1\r\nX\r\n');
    const finished = await cli(
      ['import', path],
      env(api.url, { API_TOKEN: '', API_TOKEN_FILE: tokenFile, API_WAIT_S: '2' }),
    ).finished;
    expect(finished.code, finished.stderr).toBe(1);
    const last = finished.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      new RegExp(
        `^order-importer: API_TOKEN_FILE ${tokenFile} holds a line break inside the token`,
      ),
    );
    expect(finished.stderr).not.toMatch(/waiting|does not answer/i);
    expect(noise(finished.stderr)).toEqual([]);
    expect(api.received).toBe(0);
  });

  it('gives up after API_WAIT_S with a one-line message and exit 1', async () => {
    const port = await freePort();
    const path = await writeCsvSheet(await tempDir('never-'), 'orders.csv', [sheetRow(1004)]);
    const started = Date.now();
    const finished = await cli(
      ['import', path],
      env(`http://127.0.0.1:${port}`, { API_WAIT_S: '2' }),
    ).finished;
    expect(finished.code, finished.stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    const last = finished.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      /^order-importer: The API at http:\/\/127\.0\.0\.1:\d+ did not answer within 2 s \(API_WAIT_S\)/,
    );
    expect(noise(finished.stderr)).toEqual([]);
  });
});
