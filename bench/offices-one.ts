/**
 * `node dist/bench/offices-one.js N`: one watch with N offices, measured as the suite's `offices`
 * measure does (offices-watch.ts), its figures printed as JSON; to look at one count alone (with
 * BENCH_CPU_PROF, its CPU profile).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { freePort } from '../src/redis/local-server.js';
import { cleanUp, cleanUpOnSignals, onCleanup, tempFolder } from './cleanup.js';
import { measureOfficesWatch } from './offices-watch.js';
import { BENCH_TAG, startPrivateRedis } from './private-redis.js';
import { startSandboxProcess } from './sandbox-process.js';

cleanUpOnSignals();
const offices = Number(process.argv[2] ?? 500);
const tokens = Array.from({ length: offices }, (_, i) => `bench-office-${i}-${randomUUID()}`);
try {
  const folder = await tempFolder('bench-offices');
  const redis = await startPrivateRedis(join(folder.path, 'redis'));
  const sandbox = await startSandboxProcess(0, { tokens });
  onCleanup(() => sandbox.stop());
  const figures = await measureOfficesWatch({
    offices,
    tokens,
    apiUrl: sandbox.url,
    redisUrl: redis.url,
    prefix: `{${BENCH_TAG}offices-${randomUUID()}}`,
    dir: join(folder.path, 'watch'),
    dashboardPort: await freePort(),
    settleMs: 5000,
    idleMs: 20_000,
    startTimeoutMs: 300_000,
  });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await cleanUp();
}
