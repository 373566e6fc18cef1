/**
 * `npm run bench:ledger`: the Redis memory that stays per row once a sheet is reported. A first
 * sheet is imported (so that everything kept once per installation or connection exists), then a
 * second of BENCH_ROWS rows (20,000 unless said; the figure is for 100,000); what the
 * second added under the bench's own prefix (MEMORY USAGE of each key, never a FLUSH) is divided
 * by its rows. Beside it, for comparison, the same rows in the ledger as versions before the
 * compact one kept it (one field per row key, `created|<sheetId>|<row>|<orderId>`). Target (issue
 * 11): at most 64 bytes per row in all.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import type { Context } from '../src/context.js';
import { submitSheet } from '../src/intake/submit.js';
import { loadCatalogue } from '../src/orders/catalogue.js';
import { defaultProductsFile } from '../src/package-root.js';
import { sheetProgress } from '../src/store/progress.js';
import { closeContext } from '../src/workers/stop.js';
import { startWorkers } from '../src/workers/start.js';
import { generateSheet } from './generate.js';
import { benchRedisUrl, openBenchContext, removeKeys } from './importer-run.js';
import { startSandboxProcess } from './sandbox-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const WIDTH = 32;
const TARGET = 64;

/** Bytes held under the bench's prefix, by the shape of each key's name (ids and numbers out). */
async function memoryByShape(redis: Redis, tag: string): Promise<Map<string, number>> {
  const shapes = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${tag}*`, 'COUNT', 1000);
    cursor = next;
    const sizes = await Promise.all(
      keys.map(async (key) => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'))),
    );
    keys.forEach((key, i) => {
      const shape = key
        .replace(tag, 'bench')
        .replace(/:[0-9a-f]{16}(?=:|$)/, ':<connection>')
        .replace(/\d{8}-\d{6}-[0-9a-f]{6}/g, '<sheet>')
        .replace(/:\d+(?=:|$)/g, ':<n>');
      shapes.set(shape, (shapes.get(shape) ?? 0) + (sizes[i] ?? 0));
    });
  } while (cursor !== '0');
  return shapes;
}

async function importAndWait(ctx: Context, path: string): Promise<Record<string, number>> {
  const { sheetId } = await submitSheet(ctx, path);
  for (;;) {
    const progress = await sheetProgress(ctx.store, sheetId);
    if (progress?.state === 'done') return progress.counts;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Bytes per row of the same rows in a ledger as versions before the compact one kept it. */
async function flatLedgerPerRow(redis: Redis, tag: string, connectionId: string): Promise<number> {
  const key = `{${tag}}:bench:flat-ledger`;
  for (let i = 1; i <= ROWS; i += 1000) {
    const fields: Record<string, string> = {};
    for (let n = i; n < Math.min(i + 1000, ROWS + 1); n++)
      fields[`${connectionId}|ref|B-${n}`] =
        `created|20261126-120000-0a1b2c|${n + 1}|${1_000_000 + n}`;
    await redis.hset(key, fields);
  }
  const bytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  await redis.unlink(key);
  return bytes / ROWS;
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const dir = await mkdtemp(join(tmpdir(), 'bench-ledger-'));
const tag = `bench-ledger-${randomUUID()}`;
const sandbox = await startSandboxProcess(0);
const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: WIDTH * 2 });
const redis = new Redis(benchRedisUrl());
const api = new ApiClient({
  baseUrl: sandbox.url,
  token: sandbox.token,
  timeoutMs: 30_000,
  dispatcher,
});
const ctx = await openBenchContext({
  api,
  apiUrl: sandbox.url,
  token: sandbox.token,
  tag,
  dir,
  catalogue: await loadCatalogue(defaultProductsFile()),
  concurrency: WIDTH,
});
try {
  print(
    `${ROWS.toLocaleString('en')} rows a sheet; load before: ${load()} (${cpus().length} cores)`,
  );
  await startWorkers(ctx);
  const first = await generateSheet(dir, ROWS, { name: 'first.csv', referencePrefix: 'A-' });
  const second = await generateSheet(dir, ROWS, { name: 'second.csv', referencePrefix: 'B-' });
  const counts = [await importAndWait(ctx, first)];
  const before = await memoryByShape(redis, tag);
  counts.push(await importAndWait(ctx, second));
  const after = await memoryByShape(redis, tag);
  if (counts.some((c) => c.created !== ROWS)) throw new Error(`rows: ${JSON.stringify(counts)}`);
  const growth = [...after]
    .map(([shape, bytes]) => ({ shape, perRow: (bytes - (before.get(shape) ?? 0)) / ROWS }))
    .filter((g) => Math.abs(g.perRow) >= 0.05)
    .sort((a, b) => b.perRow - a.perRow);
  const total = growth.reduce((sum, g) => sum + g.perRow, 0);
  const ledger = growth
    .filter((g) => g.shape.includes(':ledger'))
    .reduce((sum, g) => sum + g.perRow, 0);
  const flat = await flatLedgerPerRow(redis, tag, ctx.connection.id);
  for (const g of growth) print(`  ${g.perRow.toFixed(1).padStart(7)} B/row  ${g.shape}`);
  print(
    `ledger:        ${ledger.toFixed(1)} bytes per row (as kept before it was compact: ${flat.toFixed(1)})`,
  );
  print(
    `all that stays: ${total.toFixed(1)} bytes per row (target ≤ ${TARGET}): ${total <= TARGET ? 'met' : 'NOT met'}`,
  );
  print(`load after: ${load()}`);
  print(
    JSON.stringify({
      rows: ROWS,
      bytesPerRow: total,
      ledgerBytesPerRow: ledger,
      flatLedgerBytesPerRow: flat,
      growth,
    }),
  );
  process.exitCode = total <= TARGET ? 0 : 1;
} finally {
  await closeContext(ctx, { graceMs: 2000 });
  await dispatcher.close();
  await sandbox.stop();
  redis.disconnect();
  await removeKeys(benchRedisUrl(), tag);
  await rm(dir, { recursive: true, force: true });
}
