/**
 * `watch` of two offices (gent and brugge, two connections in one config file) over a
 * redis-server of its own, which a test stops and starts again on the same port: for the tests of
 * an outage (test/cli/watch-outage.e2e.test.ts, offices-restart.e2e.test.ts).
 */
import { join } from 'node:path';

import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { type CliProcess, orderImporter } from './cli.js';
import { put, tempDir } from './files.js';
import { type TestSandbox, testSandbox } from './sandbox.js';

export interface OfficesWatch {
  cli: CliProcess;
  sandbox: TestSandbox;
  /** Its data folder: the offices' inboxes are `inbox/gent` and `inbox/brugge` in it. */
  dataDir: string;
  /** The redis-server running now (restart() replaces it). */
  redis: LocalRedis;
  /** Stops Redis, as an outage does. */
  stop(): Promise<void>;
  /** Starts Redis again on the same port, with its AOF. */
  restart(): Promise<void>;
}

/** Started and watching; everything it made is stopped by the cleanups it pushes. */
export async function officesWatch(
  cleanups: Array<() => Promise<void>>,
  options: { sandbox?: SandboxOptionsInput; env?: Record<string, string> } = {},
): Promise<OfficesWatch> {
  const redisDir = await tempDir('offices-outage-redis-');
  const sandbox = await testSandbox({
    ...options.sandbox,
    tokens: [
      { token: 'token-gent', org: 'gent' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  const running = { redis: await startLocalRedis({ dir: redisDir, appendOnly: true }) };
  cleanups.push(async () => {
    await running.redis.stop();
    await sandbox.close();
  });
  const dir = await tempDir('offices-outage-');
  await put(dir, 'gent.token', 'token-gent\n');
  await put(dir, 'brugge.token', 'token-brugge\n');
  const connections = ['gent', 'brugge'].map((name) => ({
    name,
    apiBaseUrl: sandbox.url,
    tokenFile: `${name}.token`,
  }));
  const config = await put(dir, 'importer.json', JSON.stringify({ connections }));
  const dataDir = join(dir, 'data');
  const cli = orderImporter(['watch', '--config', config, '--no-dashboard'], {
    REDIS_URL: running.redis.url,
    QUEUE_PREFIX: '{offices-outage}',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });
  await cli.waitForStderr(/Watching /, 30_000);
  return {
    cli,
    sandbox,
    dataDir,
    get redis() {
      return running.redis;
    },
    stop: () => running.redis.stop(),
    restart: async () => {
      const port = running.redis.port;
      running.redis = await startLocalRedis({ dir: redisDir, appendOnly: true, port });
    },
  };
}
