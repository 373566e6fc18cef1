/**
 * The API check at start (docs/design.md, "Start-up, outages and the edges"): what is safe to retry is
 * waited out for up to API_WAIT_S, said on one line; a refused token stops at once.
 */
import { type AddressInfo, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type FlakyProxy, flakyProxy } from '../helpers/proxy.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
const proxies: FlakyProxy[] = [];
const running: CliProcess[] = [];

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  dataDir = await tempDir('api-start-');
});
afterAll(async () => {
  for (const cli of running) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
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

function cli(args: readonly string[], envs: Record<string, string>): CliProcess {
  const started = orderImporter(args, envs);
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

describe('a worker started while the API is away', () => {
  it('waits for it, then works the rows an import queues', async () => {
    const port = await freePort();
    const worker = cli(['worker'], env(`http://127.0.0.1:${port}`, { LOG_LEVEL: 'warn' }));
    await worker.waitForStderr(/waiting/i, 20_000);
    await sleep(2000);
    expect(worker.child.exitCode).toBeNull();
    // Back, but busy for a moment: three more 503s before it answers.
    await proxy({ port, refuse: 3 });
    await worker.waitForStderr(/Worker ready/, 20_000);
    const path = await writeCsvSheet(await tempDir('worker-'), 'orders.csv', [
      sheetRow(1010),
      sheetRow(1011),
    ]);
    const imported = await cli(['import', '--no-workers', path], env(`http://127.0.0.1:${port}`))
      .finished;
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/orders\.csv\s+2\s+2\s+0\s+0\s+0\s+0/);
    worker.signal('SIGTERM');
    const stopped = await worker.finished;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr.split('\n').filter((l) => /waiting/i.test(l))).toHaveLength(1);
    expect(noise(stopped.stderr)).toEqual([]);
  });

  it('never exits because the API is away, even past API_WAIT_S: it says so once more and waits on', async () => {
    const port = await freePort();
    const worker = cli(['worker'], env(`http://127.0.0.1:${port}`, { API_WAIT_S: '1' }));
    await worker.waitForStderr(/waiting/i, 20_000);
    await worker.waitForStderr(/still/i, 20_000);
    await sleep(1500);
    expect(worker.child.exitCode).toBeNull();
    await proxy({ port, refuse: 0 });
    await worker.waitForStderr(/Worker ready/, 20_000);
    worker.signal('SIGTERM');
    const stopped = await worker.finished;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr.split('\n').filter((l) => /still/i.test(l))).toHaveLength(1);
    expect(noise(stopped.stderr)).toEqual([]);
  });

  it('stops at once, exit 0, on a signal while its first check hangs on an API that never answers', async () => {
    const silent = createServer(() => undefined); // takes connections, answers nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const worker = cli(
        ['worker'],
        env(`http://127.0.0.1:${port}`, { API_TIMEOUT_MS: '60000', LOG_LEVEL: 'info' }),
      );
      await worker.waitForStderr(/Redis: /, 20_000);
      await sleep(1000);
      const signalled = Date.now();
      worker.signal('SIGTERM');
      const stopped = await worker.finished;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(stopped.stderr).toMatch(/^order-importer: Stopped while waiting for the API at /m);
    } finally {
      silent.close();
    }
  });

  it('stops at once, exit 0, on a signal while it waits', async () => {
    const port = await freePort();
    const worker = cli(['worker'], env(`http://127.0.0.1:${port}`));
    await worker.waitForStderr(/waiting/i, 20_000);
    worker.signal('SIGTERM');
    const stopped = await worker.finished;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toMatch(/^order-importer: Stopped while waiting for the API at /m);
  });
});
