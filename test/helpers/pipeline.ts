import { basename, dirname, join } from 'node:path';

import { pino } from 'pino';
import { Agent } from 'undici';

import { ApiClient } from '../../src/api/client.js';
import { connectionOf } from '../../src/connections/connection.js';
import { Catalogue, loadCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { Pipeline, type PipelineConfig, type SheetProgress } from '../../src/queue/runtime.js';
import { takeSheetCopy } from '../../src/store/sheet-copy.js';
import type { SheetJobDeps } from '../../src/split/sheet-job.js';
import type { SheetStore } from '../../src/store/sheet-store.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { tempDir } from './files.js';
import { type TestRedis, useTestRedis } from './redis.js';
import { type TestSandbox, testSandbox } from './sandbox.js';

/** A pipeline with workers on a Redis of its own prefix, against a sandbox of its own. */
export interface TestPipeline {
  pipeline: Pipeline;
  sandbox: TestSandbox;
  redis: TestRedis;
  reportsDir: string;
  /** Every log line, for tests that look for what must never be logged. */
  logs: string[];
  config: PipelineConfig;
  /** Queues a sheet and waits until its report is written. */
  importSheet(path: string, timeoutMs?: number): Promise<SheetProgress>;
  close(): Promise<void>;
}

export interface TestPipelineOptions {
  sandbox?: SandboxOptionsInput;
  config?: Partial<PipelineConfig>;
  /** Products the importer knows beyond the sample catalogue (the sandbox does not). */
  extraProducts?: Array<{ id: string; name: string; category: string }>;
  token?: string;
  workers?: boolean;
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
  logger?: PipelineConfig['logger'];
  token?: string;
  catalogue?: Catalogue;
}): Promise<PipelineConfig> {
  const token = parts.token ?? parts.sandbox.tokens[0]?.token ?? '';
  return {
    redisUrl: parts.redis.url,
    prefix: `{${parts.redis.prefix}}`,
    concurrency: 4,
    lockMs: 2000,
    rowAttempts: 5,
    retryDelayMs: 50,
    reportsDir: parts.reportsDir,
    sheetsDir: join(dirname(parts.reportsDir), 'sheets'),
    maxAttachmentBytes: 20 * 1024 * 1024,
    catalogue: parts.catalogue ?? (await loadCatalogue(defaultProductsFile())),
    api: new ApiClient({
      baseUrl: parts.sandbox.url,
      token,
      timeoutMs: 5000,
      dispatcher: parts.dispatcher,
    }),
    connection: connectionOf({ apiBaseUrl: parts.sandbox.url, token, name: 'test', sandbox: true }),
    logger: parts.logger ?? pino({ level: 'silent' }),
  };
}

/**
 * A pipeline without workers on the Redis and sandbox a child process uses, to look at what that
 * process did; close() closes its client too.
 */
export async function observingPipeline(parts: {
  redis: TestRedis;
  sandbox: TestSandbox;
  reportsDir: string;
}): Promise<{ pipeline: Pipeline; close(): Promise<void> }> {
  const dispatcher = new Agent();
  const pipeline = await Pipeline.connect({
    ...(await testPipelineConfig({ ...parts, dispatcher })),
    concurrency: 1,
  });
  return {
    pipeline,
    close: async () => {
      await pipeline.close();
      await dispatcher.close();
    },
  };
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
  const config: PipelineConfig = {
    ...(await testPipelineConfig({
      redis,
      sandbox,
      reportsDir,
      dispatcher,
      logger,
      catalogue,
      ...(options.token !== undefined && { token: options.token }),
    })),
    ...options.config,
  };
  const pipeline = await Pipeline.connect(config);
  if (options.workers !== false) await pipeline.startWorkers();
  return {
    pipeline,
    sandbox,
    redis,
    reportsDir,
    logs,
    config,
    async importSheet(path, timeoutMs = 30_000) {
      const { sheetId } = await pipeline.enqueue(path);
      return waitForReport(pipeline, sheetId, timeoutMs);
    },
    async close() {
      await pipeline.close({ graceMs: 2000 });
      await dispatcher.close();
      await sandbox.close();
      await redis.cleanup();
    },
  };
}

export async function waitForReport(
  pipeline: Pipeline,
  sheetId: string,
  timeoutMs = 30_000,
): Promise<SheetProgress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await pipeline.progress(sheetId);
    if (progress?.state === 'done') return progress;
    const fatal = await pipeline.fatal();
    if (fatal !== undefined) throw new Error(`import stopped: ${fatal}`);
    if (Date.now() > deadline) throw new Error(`no report in time: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sheet job's dependencies as the pipeline's own sheets worker has them, to run it by hand. */
export function sheetJobDeps(t: TestPipeline): SheetJobDeps {
  return {
    store: t.pipeline.store,
    ledger: t.pipeline.ledger,
    catalogue: t.config.catalogue,
    maxAttachmentBytes: t.config.maxAttachmentBytes,
    connectionId: t.config.connection.id,
    sheetsDir: t.config.sheetsDir,
    rows: t.pipeline.queues.rows,
    queueReport: (sheetId) => t.pipeline.queueReport(sheetId),
    hasRowJob: async (jobId) => (await t.pipeline.queues.rows.getJob(jobId)) !== undefined,
    logger: t.config.logger,
  };
}
