/**
 * An installation upgraded from before connections: rows its ledger knows under the API's URL as
 * then typed are still duplicates, never created again; another API's entries stay that API's.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { adoptLegacyScope } from '../../src/store/migrations/legacy-scope.js';
import { Ledger } from '../../src/store/ledger.js';
import { openContext } from '../../src/context.js';
import { testContextParts, waitForReport } from '../helpers/pipeline.js';
import { useTestRedis } from '../helpers/redis.js';
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
    const parts = await testContextParts('legacy-');
    closing.push(parts.close);
    const { redis, sandbox, dir, config: sandboxConfig } = parts;
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

describe('a ledger written before it was compact', () => {
  it('is carried over once: its rows are still duplicates, other connections keep theirs', async () => {
    const redis = await useTestRedis();
    closing.push(() => redis.cleanup());
    const client = new Redis(redis.url);
    closing.push(async () => client.quit());
    const keys = new Keys(`{${redis.prefix}}`);
    const connection = { id: 'c0ffee', apiBaseUrl: 'http://api.example', sandbox: false };
    await client.hset(keys.ledger, {
      'c0ffee|ref|R-1': 'created|old-sheet|1|4242',
      'c0ffee|fp|ab12': 'unknown|old-sheet|2|',
      'beef|ref|R-1': 'created|their-sheet|1|777',
    });
    const ledger = new Ledger(client, keys, {
      connectionId: connection.id,
      ledgerDays: 400,
      now: Date.now,
    });

    expect(await adoptLegacyScope(client, keys, connection, ledger)).toEqual({
      ledger: 0,
      sheets: 0,
      compacted: 2,
    });
    expect(await ledger.claim('c0ffee|ref|R-1', { sheetId: 'new', row: 1 })).toEqual({
      kind: 'duplicate',
      orderId: 4242,
      sheetId: 'old-sheet',
      row: 1,
    });
    expect(await ledger.lookup('c0ffee|fp|ab12')).toMatchObject({ state: 'unknown' });
    expect(await client.hgetall(keys.ledger)).toEqual({
      'beef|ref|R-1': 'created|their-sheet|1|777',
    });
    expect(await adoptLegacyScope(client, keys, connection, ledger)).toMatchObject({
      compacted: 0,
    });
  });
});
