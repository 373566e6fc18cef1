/**
 * A second sheet after a first (issue 11), in one run: the Redis memory that stays per row once
 * its report is written, and the CPU per row over it, in the product's process and in Redis. The
 * importer is the CLI, `order-importer import` once per sheet (second-sheet.ts, cli-import.ts),
 * against a private redis-server and the sandbox in a process of its own, 1 ms added per request,
 * 32 rows in flight.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { onCleanup, tempFolder } from './cleanup.js';
import { runChild } from './children.js';
import type { ContestantInput, ContestantKind, ContestantResult } from './contestant.js';
import { generateSheet } from './generate.js';
import {
  figure,
  type Line,
  line,
  type LineSpec,
  loadNow,
  type Measure,
  perSecond,
  progress,
  scaled,
} from './lines.js';
import { BENCH_TAG, startPrivateRedis } from './private-redis.js';
import { startSandboxProcess } from './sandbox-process.js';
import type { SecondSheetInput, SecondSheetResult } from './second-sheet.js';

const ROWS = 100_000;
const LATENCY_MS = 1;
const WIDTH = 32;
const MAX_BYTES = 64;
const MAX_PRODUCT_MS = 0.5;
const MAX_REDIS_MS = 0.2;

const memory: LineSpec = {
  key: 'redisMemoryPerRow',
  label: 'Redis memory that stays per row (a second sheet, reported)',
  targets: { maxBytesPerRow: MAX_BYTES },
  target: [`≤ ${MAX_BYTES} bytes per row`],
};
const cpu: LineSpec = {
  key: 'cpuPerRow',
  label: `CPU per row over a second sheet (${LATENCY_MS} ms a request, ${WIDTH} wide)`,
  targets: { maxProductMsPerRow: MAX_PRODUCT_MS, maxRedisMsPerRow: MAX_REDIS_MS },
  target: [`≤ ${MAX_PRODUCT_MS} ms in the product`, `≤ ${MAX_REDIS_MS} ms in Redis`],
};

export const secondSheetMeasure: Measure = {
  name: 'second-sheet',
  aliases: ['memory', 'cpu'],
  lines: [memory, cpu],
  run: async (scale) => {
    const rows = scaled(ROWS, scale);
    const folder = await tempFolder('bench-second-sheet');
    try {
      progress(`second-sheet: generating 2 × ${rows.toLocaleString('en')} rows…`);
      const first = await generateSheet(folder.path, rows, {
        name: 'first.csv',
        referencePrefix: 'A-',
      });
      const second = await generateSheet(folder.path, rows, {
        name: 'second.csv',
        referencePrefix: 'B-',
      });
      const redis = await startPrivateRedis(join(folder.path, 'redis'));
      const sandbox = await startSandboxProcess(LATENCY_MS);
      const stopSandbox = onCleanup(() => sandbox.stop());
      try {
        const before = loadNow();
        progress(`second-sheet: importing both sheets… (load ${before.loadavg.join(' ')})`);
        const input: SecondSheetInput = {
          api: { url: sandbox.url, token: sandbox.token },
          redisUrl: redis.url,
          tag: `${BENCH_TAG}second-sheet-${randomUUID()}`,
          dir: folder.path,
          first,
          second,
          rows,
          concurrency: WIDTH,
        };
        const result = await runChild<SecondSheetResult>('second-sheet.js', input);
        if (result.counts.some((c) => c.created !== rows)) {
          throw new Error(`rows not all created: ${JSON.stringify(result.counts)}`);
        }
        const peers = await peersCpu(sandbox, second, folder.path, redis.url);
        return secondSheetLines(result, peers, { before, after: loadNow() });
      } finally {
        await stopSandbox();
        await redis.stop();
      }
    } finally {
      await folder.remove();
    }
  },
};

/** The peers' CPU per row for the same sheet's requests, each in a process of its own. */
async function peersCpu(
  sandbox: { url: string; token: string },
  sheet: string,
  dir: string,
  redisUrl: string,
): Promise<Array<{ kind: ContestantKind; cpuMsPerRow: number }>> {
  const peers: Array<{ kind: ContestantKind; cpuMsPerRow: number }> = [];
  for (const kind of ['fetch-pool', 'client-pool'] as const) {
    progress(
      `second-sheet: the ${kind} sends the same rows… (load ${loadNow().loadavg.join(' ')})`,
    );
    const input: ContestantInput = {
      kind,
      api: { url: sandbox.url, token: sandbox.token },
      redisUrl,
      sheet,
      dir: join(dir, kind),
      width: WIDTH,
    };
    const result = await runChild<ContestantResult>('contestant.js', input);
    peers.push({ kind, cpuMsPerRow: result.cpuMs / result.rows });
  }
  return peers;
}

const PEER_NAMES: Record<string, string> = {
  'fetch-pool': 'fetch pool',
  'client-pool': 'ApiClient pool',
};

function secondSheetLines(
  result: SecondSheetResult,
  peers: Array<{ kind: ContestantKind; cpuMsPerRow: number }>,
  load: Line['load'],
): Line[] {
  const bytesPerRow = result.growth.reduce((sum, g) => sum + g.perRow, 0);
  const ledger = result.growth
    .filter((g) => g.shape.includes(':ledger'))
    .reduce((sum, g) => sum + g.perRow, 0);
  const productMs = result.productCpuMs / result.rows;
  const redisMs = result.redisCpuMs / result.rows;
  const rate = perSecond(result.rows, result.seconds * 1000);
  return [
    line(memory, {
      status: bytesPerRow <= MAX_BYTES ? 'met' : 'NOT met',
      product: [
        `${bytesPerRow.toFixed(0)} bytes per row`,
        `of which the ledger: ${ledger.toFixed(0)}`,
        `${result.rows.toLocaleString('en')} rows`,
      ],
      peers: ['the peers keep nothing'],
      figures: {
        rows: result.rows,
        bytesPerRow,
        ledgerBytesPerRow: ledger,
        usedMemoryPerRow: result.usedMemoryPerRow,
        byKeyShape: result.growth,
      },
      load,
    }),
    line(cpu, {
      status: productMs <= MAX_PRODUCT_MS && redisMs <= MAX_REDIS_MS ? 'met' : 'NOT met',
      product: [
        `${productMs.toFixed(2)} ms in the product`,
        `${redisMs.toFixed(2)} ms in Redis`,
        `${figure(rate)} rows/s`,
      ],
      peers: peers.map(
        (p) => `${PEER_NAMES[p.kind] ?? p.kind}: ${p.cpuMsPerRow.toFixed(2)} ms per row`,
      ),
      figures: {
        peersCpuMsPerRow: Object.fromEntries(peers.map((p) => [p.kind, p.cpuMsPerRow])),
        rows: result.rows,
        latencyMs: LATENCY_MS,
        width: WIDTH,
        productCpuMsPerRow: productMs,
        redisCpuMsPerRow: redisMs,
        rowsPerSecond: rate,
        seconds: result.seconds,
      },
      load,
    }),
  ];
}
