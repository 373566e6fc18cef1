/**
 * Child process: the CLI imports a first sheet (so that whatever is kept once per installation or
 * connection exists, and the ledger holds its rows), then, in a second `order-importer import`, a
 * second sheet of as many rows, on the benchmark's private Redis and the same data folder. Over
 * the second: the CPU its process used ("in the product", cli-import.ts) and the CPU Redis used
 * (INFO cpu), and, once it has exited, what Redis still holds for it (MEMORY USAGE of every key
 * under the importer's prefix, by the shape of the key's name).
 */
import { join } from 'node:path';

import type { Redis } from 'ioredis';

import { childInput, endWithParent, printResult } from './child-side.js';
import { cliImport } from './cli-import.js';
import { redisCpuSeconds, redisUsedMemory } from './private-redis.js';
import { connectRedis } from '../src/redis/connect.js';
import { parseRedisUrl } from '../src/redis/target.js';

export interface SecondSheetInput {
  api: { url: string; token: string };
  redisUrl: string;
  tag: string;
  dir: string;
  first: string;
  second: string;
  rows: number;
  concurrency: number;
}

export interface SecondSheetResult {
  rows: number;
  counts: Array<Record<string, number>>;
  seconds: number;
  productCpuMs: number;
  redisCpuMs: number;
  /** What the second sheet left in Redis, by the shape of the key's name, per row. */
  growth: Array<{ shape: string; perRow: number }>;
  /** The growth of Redis's `used_memory` over the second sheet, per row: allocator overheads too. */
  usedMemoryPerRow: number;
}

/** Bytes held under the tag, by the shape of each key's name (ids and numbers taken out). */
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
        .replace(/([:-])[0-9a-f]{16}(?=:|$)/, '$1<connection>')
        .replace(/\d{8}-\d{6}-[0-9a-f]{6}/g, '<sheet>')
        .replace(/:\d+(?=:|$)/g, ':<n>');
      shapes.set(shape, (shapes.get(shape) ?? 0) + (sizes[i] ?? 0));
    });
  } while (cursor !== '0');
  return shapes;
}

async function run(input: SecondSheetInput): Promise<SecondSheetResult> {
  const redis = await connectRedis(parseRedisUrl(input.redisUrl));
  const importSheet = (sheet: string) =>
    cliImport({
      api: input.api,
      redisUrl: input.redisUrl,
      prefix: `{${input.tag}}`,
      dataDir: join(input.dir, 'importer'),
      concurrency: input.concurrency,
      sheet,
      ...(process.env.BENCH_CPU_PROF && { cpuProfileDir: process.env.BENCH_CPU_PROF }),
    });
  try {
    const counts = [(await importSheet(input.first)).counts];
    const before = await memoryByShape(redis, input.tag);
    const usedBefore = await redisUsedMemory(redis);
    const redisCpu = await redisCpuSeconds(redis);
    const second = await importSheet(input.second);
    counts.push(second.counts);
    const redisCpuMs = ((await redisCpuSeconds(redis)) - redisCpu) * 1000;
    const usedMemoryPerRow = ((await redisUsedMemory(redis)) - usedBefore) / input.rows;
    const after = await memoryByShape(redis, input.tag);
    const growth = [...after]
      .map(([shape, bytes]) => ({ shape, perRow: (bytes - (before.get(shape) ?? 0)) / input.rows }))
      .filter((g) => Math.abs(g.perRow) >= 0.05)
      .sort((a, b) => b.perRow - a.perRow);
    return {
      rows: input.rows,
      counts,
      seconds: second.ms / 1000,
      productCpuMs: second.cpuMs,
      redisCpuMs,
      growth,
      usedMemoryPerRow,
    };
  } finally {
    redis.disconnect();
  }
}

endWithParent();
printResult(await run(childInput() as SecondSheetInput));
