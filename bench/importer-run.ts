/**
 * One import through the product as a service runs it: a context with its workers on a Redis
 * prefix of its own, a sheet submitted, every row followed to its outcome. Its keys are removed
 * afterwards, one SCAN page at a time (never a FLUSH: the server may be shared).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { pino } from 'pino';
import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import { connectionOf } from '../src/connections/connection.js';
import { type Context, openContext } from '../src/context.js';
import { submitSheet } from '../src/intake/submit.js';
import type { Catalogue } from '../src/orders/catalogue.js';
import type { OrderPayload } from '../src/orders/row.js';
import { installationOf } from '../src/store/installation.js';
import { sheetProgress } from '../src/store/progress.js';
import { startWorkers } from '../src/workers/start.js';
import { closeContext } from '../src/workers/stop.js';
import { removeKeys } from './private-redis.js';

export interface ImporterRun {
  /** From the call to submit until the sheet is read (copied, hashed, registered, queued). */
  submitMs: number;
  /** From the sheet read and queued until the first create is sent. */
  firstCreateMs: number;
  /** From the sheet read and queued until every row has its outcome. */
  allFinalMs: number;
  /** From the first create sent until every row has its outcome. */
  createsMs: number;
  counts: Record<string, number>;
}

/** The API client noting when the first create leaves: the moment the sheet job's work shows. */
class TimedClient extends ApiClient {
  firstCreateAt: number | undefined;

  override async createOrder(order: OrderPayload, signal?: AbortSignal) {
    this.firstCreateAt ??= performance.now();
    return super.createOrder(order, signal);
  }
}

/** A context as a service opens it, on a Redis prefix of its own (`{<tag>}`). */
export async function openBenchContext(options: {
  api: ApiClient;
  apiUrl: string;
  token: string;
  tag: string;
  dir: string;
  catalogue: Catalogue;
  concurrency: number;
}): Promise<Context> {
  return openContext({
    settings: {
      redisUrl: benchRedisUrl(),
      prefix: `{${options.tag}}`,
      concurrency: options.concurrency,
      lockMs: 30_000,
      rowAttempts: 8,
      retryDelayMs: 1000,
      reportsDir: join(options.dir, 'reports'),
      sheetsDir: join(options.dir, 'sheets'),
      maxAttachmentBytes: 20 * 1024 * 1024,
    },
    installation: await installationOf(options.dir),
    catalogue: options.catalogue,
    api: options.api,
    connection: connectionOf({
      apiBaseUrl: options.apiUrl,
      token: options.token,
      name: 'bench',
      sandbox: true,
    }),
    logger: pino({ level: 'silent' }),
  });
}

export const benchRedisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function runImporter(options: {
  api: { url: string; token: string };
  sheet: string;
  dir: string;
  catalogue: Catalogue;
  concurrency: number;
}): Promise<ImporterRun> {
  const redisUrl = benchRedisUrl();
  const tag = `bench-throughput-${randomUUID()}`;
  const dispatcher = new Agent({
    keepAliveTimeout: 30_000,
    connections: Math.max(16, options.concurrency * 2),
  });
  const api = new TimedClient({
    baseUrl: options.api.url,
    token: options.api.token,
    timeoutMs: 30_000,
    dispatcher,
  });
  const ctx = await openBenchContext({
    api,
    apiUrl: options.api.url,
    token: options.api.token,
    tag,
    dir: options.dir,
    catalogue: options.catalogue,
    concurrency: options.concurrency,
  });
  try {
    await startWorkers(ctx);
    const submitting = performance.now();
    const { sheetId } = await submitSheet(ctx, options.sheet);
    const read = performance.now();
    let allFinal: number | undefined;
    for (;;) {
      const progress = await sheetProgress(ctx.store, sheetId);
      if (progress?.total !== undefined && progress.final >= progress.total) {
        allFinal ??= performance.now();
      }
      if (progress?.state === 'done') {
        const firstCreate = api.firstCreateAt ?? Number.NaN;
        return {
          submitMs: read - submitting,
          firstCreateMs: firstCreate - read,
          allFinalMs: (allFinal ?? performance.now()) - read,
          createsMs: (allFinal ?? performance.now()) - firstCreate,
          counts: progress.counts,
        };
      }
      // Often enough to time the end to a few hundredths, seldom enough to cost the import nothing.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await closeContext(ctx, { graceMs: 2000 });
    await dispatcher.close();
    await removeKeys(redisUrl, tag);
  }
}
