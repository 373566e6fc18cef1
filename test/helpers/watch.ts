import { join } from 'node:path';

import { afterEach } from 'vitest';

import type { Context } from '../../src/context.js';
import { freePort } from '../../src/redis/local-server.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { type CliProcess, orderImporter } from './cli.js';
import { drained } from './drain.js';
import { tempDir } from './files.js';
import { observingContext } from './pipeline.js';
import { type TestRedis, useTestRedis } from './redis.js';
import { type TestSandbox, testSandbox } from './sandbox.js';
import { recentProgress, type SheetProgress } from '../../src/store/progress.js';

/** A `watch` process of its own (child process), with a Redis prefix, a sandbox and a data folder. */
export interface TestWatch {
  dataDir: string;
  inbox: string;
  sandbox: TestSandbox;
  redis: TestRedis;
  /** A context on the same Redis, without workers: to look at what the watcher did. */
  ctx: Context;
  dashboardPort: number;
  env: Record<string, string>;
  /** Starts `order-importer watch` and waits until it watches. */
  start(extraEnv?: Record<string, string>, args?: string[]): Promise<CliProcess>;
  /** Waits until `count` sheets are done and their report jobs ended; returns them, oldest first. */
  done(count: number, timeoutMs?: number): Promise<SheetProgress[]>;
  close(): Promise<void>;
}

export async function testWatch(
  options: { sandbox?: SandboxOptionsInput } = {},
): Promise<TestWatch> {
  const redis = await useTestRedis();
  const sandbox = await testSandbox(options.sandbox);
  const dataDir = await tempDir('watch-');
  const observer = await observingContext({
    redis,
    sandbox,
    reportsDir: join(dataDir, 'reports'),
  });
  const { ctx } = observer;
  const dashboardPort = await freePort();
  const env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
    DASHBOARD_PORT: String(dashboardPort),
  };
  const processes: CliProcess[] = [];
  return {
    dataDir,
    inbox: join(dataDir, 'inbox'),
    sandbox,
    redis,
    ctx,
    dashboardPort,
    env,
    async start(extraEnv = {}, args = []) {
      const cli = orderImporter(['watch', ...args], { ...env, ...extraEnv });
      processes.push(cli);
      await cli.waitForStderr(/Watching /, 30_000);
      return cli;
    },
    async done(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const sheets = (await recentProgress(ctx.store)).reverse();
        if (sheets.filter((s) => s.state === 'done').length >= count) {
          // A sheet is marked done before its report job archives its work folder and says so
          // in summary.json: the jobs ended, what the tests look at next is in place.
          await drained(ctx.queues.reports, Math.max(1000, deadline - Date.now()));
          return sheets;
        }
        if (Date.now() > deadline) {
          // What the watch processes said is what explains it.
          const said = processes.map((p) => p.stderr).join('\n---\n');
          throw new Error(
            `not ${count} sheets done in time: ${JSON.stringify(sheets)}\nwatch said:\n${said}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      for (const cli of processes) {
        if (cli.child.exitCode === null && cli.child.signalCode === null) {
          cli.child.kill('SIGKILL');
          await cli.finished;
        }
      }
      await observer.close();
      await sandbox.close();
      await redis.cleanup();
    },
  };
}

/**
 * `testWatch` for a test file whose watch processes are all closed after each test: call it
 * once at the file's top level.
 */
export function watchesClosedAfterEach(): (
  options?: Parameters<typeof testWatch>[0],
) => Promise<TestWatch> {
  const open: TestWatch[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((w) => w.close()));
  });
  return async (options = {}) => {
    const w = await testWatch(options);
    open.push(w);
    return w;
  };
}
