/**
 * An installation upgraded from before connections: rows its ledger knows under the API's URL as
 * then typed are still duplicates, never created again; another API's entries stay that API's.
 */
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { openContext } from '../../src/context.js';
import { tempDir } from '../helpers/files.js';
import { testPipelineConfig, waitForReport } from '../helpers/pipeline.js';
import { useTestRedis } from '../helpers/redis.js';
import { testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { submitSheet } from '../../src/intake/submit.js';
import { closeContext } from '../../src/workers/stop.js';
import { startWorkers } from '../../src/workers/start.js';

const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

describe('a ledger written before connections', () => {
  it('still makes its rows duplicates, whatever spelling of the URL they were kept under', async () => {
    const redis = await useTestRedis();
    const sandbox = await testSandbox();
    const dispatcher = new Agent();
    closing.push(
      () => redis.cleanup(),
      () => sandbox.close(),
      () => dispatcher.close(),
    );
    const dir = await tempDir('legacy-');
    const sandboxConfig = await testPipelineConfig({
      redis,
      sandbox,
      reportsDir: join(dir, 'reports'),
      dispatcher,
      logger: pino({ level: 'silent' }),
    });
    // Spoken to as a real API (only the embedded sandbox's old entries are left behind).
    const config = {
      ...sandboxConfig,
      connection: { ...sandboxConfig.connection, sandbox: false },
    };
    const client = new Redis(redis.url);
    closing.push(async () => client.quit());
    const keys = new Keys(config.settings.prefix);
    const port = new URL(sandbox.url).port;
    // As an earlier version wrote them: the URL as the user typed it, then the row's key.
    await client.hset(keys.ledger, {
      [`HTTP://LOCALHOST:${port}/|ref|R-1`]: 'created|old-sheet|1|4242',
      [`http://127.0.0.1:${port}|ref|R-2`]: 'unknown|old-sheet|2|',
      [`http://elsewhere.example|ref|R-3`]: 'created|old-sheet|3|777',
    });

    const ctx = await openContext(config);
    closing.push(() => closeContext(ctx, { graceMs: 1000 }));
    await startWorkers(ctx);
    const path = await writeCsvSheet(dir, 'again.csv', [sheetRow(1), sheetRow(2), sheetRow(3)]);
    const { sheetId } = await submitSheet(ctx, path);
    const progress = await waitForReport(ctx, sheetId);
    expect(progress.counts).toMatchObject({ duplicate: 1, 'needs-review': 1, created: 1 });
    const orders = await sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name)).toEqual(['Contact 3']);
  });
});
