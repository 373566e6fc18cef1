/**
 * The sheet of a rate-limit run (rate-limit.ts), submitted once as a service's intake would, on
 * the fleet's Redis prefix and connection.
 */
import { join } from 'node:path';

import { pino } from 'pino';
import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import { connectionOf, normaliseBaseUrl } from '../src/connections/connection.js';
import { type Context, openContext } from '../src/context.js';
import { submitSheet } from '../src/intake/submit.js';
import { loadCatalogue } from '../src/orders/catalogue.js';
import { defaultProductsFile } from '../src/package-root.js';
import { installationOf } from '../src/store/installation.js';
import { sheetProgress } from '../src/store/progress.js';
import { closeContext } from '../src/workers/stop.js';
import { parseRedisUrl } from '../src/redis/target.js';

/**
 * Submits the sheet through a context of its own on the fleet's prefix (no workers: the fleet
 * does the work) and waits until every row has its outcome; the ms that took.
 */
export async function importOnce(options: {
  api: { url: string; token: string };
  redisUrl: string;
  tag: string;
  dir: string;
  sheet: string;
  rows: number;
}): Promise<number> {
  const dispatcher = new Agent();
  const apiBaseUrl = normaliseBaseUrl(options.api.url);
  let ctx: Context | undefined;
  try {
    ctx = await openContext({
      settings: {
        redis: parseRedisUrl(options.redisUrl),
        prefix: `{${options.tag}}`,
        concurrency: 1,
        lockMs: 30_000,
        rowAttempts: 8,
        retryDelayMs: 1000,
        reportsDir: join(options.dir, 'reports'),
        sheetsDir: join(options.dir, 'sheets'),
        maxAttachmentBytes: 20 * 1024 * 1024,
      },
      installation: await installationOf(options.dir),
      catalogue: await loadCatalogue(defaultProductsFile()),
      api: new ApiClient({
        baseUrl: apiBaseUrl,
        token: options.api.token,
        timeoutMs: 30_000,
        dispatcher,
      }),
      connection: connectionOf({
        apiBaseUrl,
        token: options.api.token,
        name: 'default',
        sandbox: false,
      }),
      logger: pino({ level: 'silent' }),
    });
    const started = performance.now();
    const { sheetId } = await submitSheet(ctx, options.sheet);
    // Long enough for rows refused again and again; a fleet stuck is a failed run, not a hang.
    const deadline = started + 600_000 + options.rows * 1000;
    for (;;) {
      const progress = await sheetProgress(ctx.store, sheetId);
      if (progress?.state === 'done') {
        if (progress.counts.created !== options.rows)
          throw new Error(`rows not created: ${JSON.stringify(progress.counts)}`);
        return performance.now() - started;
      }
      if (performance.now() > deadline)
        throw new Error(`the import did not end: ${JSON.stringify(progress)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    if (ctx) await closeContext(ctx, { graceMs: 2000 });
    await dispatcher.close();
  }
}
