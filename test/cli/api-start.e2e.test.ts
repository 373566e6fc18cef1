/**
 * The API check at start (docs/design.md, "Start-up, outages and the edges"): what is safe to retry is
 * waited out for up to API_WAIT_S, said on one line. A worker process, stopped by signals while it
 * waits; `import` is tested in process in api-start.redis.test.ts.
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
