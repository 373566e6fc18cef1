import { basename, dirname, join } from 'node:path';

import type { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { Agent } from 'undici';

import { ApiClient } from '../../src/api/client.js';
import { connectionOf } from '../../src/connections/connection.js';
import { Catalogue, loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { assembleImporter } from '../../src/app/importer.js';
import { type Context, type ContextParts, openContext } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import { importStopped } from '../../src/rows/stop-import.js';
import { type SheetProgress, sheetProgress } from '../../src/store/progress.js';
import { closeContext } from '../../src/workers/stop.js';
import type { OfficeQueue } from '../../src/queue/queues.js';
import { installationOf } from '../../src/store/installation.js';
import { takeSheetCopy } from '../../src/store/sheet-copy.js';
import type { SheetStore } from '../../src/store/sheet-store.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { tempDir } from './files.js';
import { type TestRedis, useTestRedis } from './redis.js';
import { type TestSandbox, testSandbox } from './sandbox.js';
import { parseRedisUrl } from '../../src/redis/target.js';

/**
 * A context with workers on a Redis of its own prefix, against a sandbox of its own, put together
 * by the assembly the commands use (`assembleImporter`) from the test's parts.
 */
export interface TestPipeline {
  ctx: Context;
  sandbox: TestSandbox;
  redis: TestRedis;
  reportsDir: string;
  /** Every log line, for tests that look for what must never be logged. */
  logs: string[];
  config: ContextParts;
  /** Queues a sheet and waits until its report is written. */
  importSheet(path: string, timeoutMs?: number): Promise<SheetProgress>;
  close(): Promise<void>;
}

export interface TestPipelineOptions {
  sandbox?: SandboxOptionsInput;
  /** Settings over the test's own (quick retries, its Redis, its folders). */
  settings?: Partial<ContextParts['settings']>;
  /** Products the importer knows beyond the sample catalogue (the sandbox does not). */
  extraProducts?: Array<{ id: string; name: string; category: string }>;
  token?: string;
  workers?: boolean;
  /** The connection's name, its office (`gent`); `test` without it. */
  connectionName?: string;
}

/**
 * A pipeline config for tests: the Redis's own prefix, quick retries and stall recovery, the
 * sample catalogue, and a client for the sandbox.
 */
export async function testPipelineConfig(parts: {
  redis: TestRedis;
  sandbox: TestSandbox;
  reportsDir: string;
  dispatcher: Agent;
  logger?: ContextParts['logger'];
  token?: string;
  catalogue?: Catalogue;
  connectionName?: string;
}): Promise<ContextParts> {
  const token = parts.token ?? parts.sandbox.tokens[0]?.token ?? '';
  return {
    settings: {
      redis: parseRedisUrl(parts.redis.url),
      prefix: `{${parts.redis.prefix}}`,
      concurrency: 4,
      lockMs: 2000,
      rowAttempts: 5,
      retryDelayMs: 50,
      reportsDir: parts.reportsDir,
      sheetsDir: join(dirname(parts.reportsDir), 'sheets'),
      maxAttachmentBytes: 20 * 1024 * 1024,
    },
    catalogue: parts.catalogue ?? (await loadCatalogue(defaultProductsFile())),
    api: new ApiClient({
      baseUrl: parts.sandbox.url,
      token,
      timeoutMs: 5000,
      dispatcher: parts.dispatcher,
    }),
    connection: connectionOf({
      apiBaseUrl: parts.sandbox.url,
      token,
      name: parts.connectionName ?? 'test',
      sandbox: true,
    }),
    // The data folder is the reports' parent, as `sheetsDir` says.
    installation: await installationOf(dirname(parts.reportsDir)),
    logger: parts.logger ?? pino({ level: 'silent' }),
  };
}

/**
 * A context without workers on the Redis and sandbox a child process uses, to look at what that
 * process did; close() closes its client too.
 */
export async function observingContext(parts: {
  redis: TestRedis;
  sandbox: TestSandbox;
  reportsDir: string;
}): Promise<{ ctx: Context; close(): Promise<void> }> {
  const dispatcher = new Agent();
  const config = await testPipelineConfig({ ...parts, dispatcher });
  // Not the assembly: an observer must not lift a stop the observed process recorded.
  const ctx = await openContext({ ...config, settings: { ...config.settings, concurrency: 1 } });
  return {
    ctx,
    close: async () => {
      await closeContext(ctx);
      await dispatcher.close();
    },
  };
}

/**
 * Registers, for each test of the calling file, a pipeline without workers and beside it another
 * installation (another data folder) on the same Redis and prefix with the same API and token;
 * both are closed after the test.
 */
export function besideAnotherInstallation(): { mine(): TestPipeline; theirs(): Context } {
  let t: TestPipeline | undefined;
  let other: { ctx: Context; close(): Promise<void> } | undefined;
  beforeEach(async () => {
    t = await testPipeline({ workers: false });
    const reportsDir = join(await tempDir('other-install-'), 'reports');
    other = await observingContext({ redis: t.redis, sandbox: t.sandbox, reportsDir });
  });
  afterEach(async () => {
    await other?.close();
    await t?.close();
  });
  const given = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('used outside a test');
    return value;
  };
  return { mine: () => given(t), theirs: () => given(other).ctx };
}

/** The connection of sheets recorded by hand, for sheet jobs run by hand. */
export const TEST_CONNECTION_ID = '0123456789abcdef';

/**
 * Records a sheet in the store as `enqueue` would (its private copy taken into `sheetsDir`), for
 * tests that run a sheet job by hand.
 */
export async function recordTestSheet(
  store: SheetStore,
  sheetId: string,
  path: string,
  sheetsDir: string,
  connectionId = TEST_CONNECTION_ID,
): Promise<void> {
  const { sha256, origin } = await takeSheetCopy(path, sheetsDir, sheetId);
  await store.create({
    sheetId,
    path,
    name: basename(path),
    sha256,
    origin,
    connectionId,
    apiBaseUrl: 'http://api',
    sandbox: false,
    allowDuplicates: false,
    startedAt: new Date().toISOString(),
  });
}

export async function testPipeline(options: TestPipelineOptions = {}): Promise<TestPipeline> {
  const redis = await useTestRedis();
  const sandbox = await testSandbox(options.sandbox);
  const reportsDir = join(await tempDir('reports-'), 'reports');
  const logs: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => logs.push(line) });
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const samples = await loadCatalogue(defaultProductsFile());
  const catalogue = new Catalogue([...samples.products, ...(options.extraProducts ?? [])]);
  const base = await testPipelineConfig({
    redis,
    sandbox,
    reportsDir,
    dispatcher,
    logger,
    catalogue,
    ...(options.token !== undefined && { token: options.token }),
    ...(options.connectionName !== undefined && { connectionName: options.connectionName }),
  });
  const config: ContextParts = { ...base, settings: { ...base.settings, ...options.settings } };
  // The assembly users run (src/app/importer.ts), from the test's own parts.
  const assembled = await assembleImporter({
    ...config,
    announce: (line) => logs.push(line),
    workers: options.workers !== false,
  });
  const { ctx } = assembled;
  return {
    ctx,
    sandbox,
    redis,
    reportsDir,
    logs,
    config,
    async importSheet(path, timeoutMs = 30_000) {
      const { sheetId } = await submitSheet(ctx, path);
      return waitForReport(ctx, sheetId, timeoutMs);
    },
    async close() {
      await assembled.close({ graceMs: 2000 });
      await dispatcher.close();
      await sandbox.close();
      await redis.cleanup();
    },
  };
}

export async function waitForReport(
  ctx: Context,
  sheetId: string,
  timeoutMs = 30_000,
): Promise<SheetProgress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await sheetProgress(ctx.store, sheetId);
    if (progress?.state === 'done') return progress;
    const fatal = await importStopped(ctx);
    if (fatal !== undefined) throw new Error(`import stopped: ${fatal.reason}`);
    if (Date.now() > deadline) throw new Error(`no report in time: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The context with some of its rows queue's methods taken over, to put a fault or an event
 * between two steps of a sheet job; the rest is the real queue.
 */
export function withRowsQueue(
  ctx: Context,
  hooks: Partial<Pick<Queue, 'addBulk' | 'getJobCountByTypes'>>,
): Context {
  const rows = Object.assign(Object.create(ctx.queues.rows) as OfficeQueue, hooks);
  return { ...ctx, queues: { ...ctx.queues, rows } };
}

/** The context with another attachment size limit. */
export function withAttachmentLimit(ctx: Context, maxAttachmentBytes: number): Context {
  return { ...ctx, settings: { ...ctx.settings, maxAttachmentBytes } };
}

/**
 * A Redis prefix, a sandbox and a folder of their own, and the parts a context is opened from,
 * for tests that open their contexts themselves (a moved clock, a setting of their own).
 */
export async function testContextParts(folder: string): Promise<{
  redis: TestRedis;
  sandbox: TestSandbox;
  dir: string;
  config: ContextParts;
  close: () => Promise<void>;
}> {
  const redis = await useTestRedis();
  const sandbox = await testSandbox();
  const dispatcher = new Agent();
  const dir = await tempDir(folder);
  const config = await testPipelineConfig({
    redis,
    sandbox,
    reportsDir: join(dir, 'reports'),
    dispatcher,
  });
  return {
    redis,
    sandbox,
    dir,
    config,
    close: async () => {
      await dispatcher.close();
      await sandbox.close();
      await redis.cleanup();
    },
  };
}
