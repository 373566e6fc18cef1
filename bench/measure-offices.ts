/**
 * Many offices (issue 26, docs/design.md "Operations" — "Many offices"): one `watch` serving 500
 * offices, each its own token and inbox folder, against one sandbox in a process of its own and a
 * private redis-server. Its start time, resident memory, Redis connections and idle CPU, beside
 * the targets; and the same for 1 and 200 offices, to show how each grows with the offices.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { freePort } from '../src/redis/local-server.js';
import { onCleanup, tempFolder } from './cleanup.js';
import { type Line, line, type LineSpec, loadNow, type Measure, progress } from './lines.js';
import { measureOfficesWatch, type OfficesWatchFigures } from './offices-watch.js';
import { BENCH_TAG, startPrivateRedis } from './private-redis.js';
import { startSandboxProcess } from './sandbox-process.js';

const OFFICES = [1, 200, 500];
const MAX_START_S = 10;
const MAX_RSS_MB = 400;
const MAX_CONNECTIONS = 64;
const MAX_IDLE_CPU = 2;
const SETTLE_MS = 5_000;
const IDLE_MS = 20_000;

const spec = (offices: number): LineSpec => ({
  key: `offices${offices}`,
  label: `watch with ${offices} office${offices === 1 ? '' : 's'}, idle`,
  targets: {
    maxStartSeconds: MAX_START_S,
    maxRssMB: MAX_RSS_MB,
    maxRedisConnections: MAX_CONNECTIONS,
    maxIdleCpuPercent: MAX_IDLE_CPU,
  },
  target: [
    `start ≤ ${MAX_START_S} s`,
    `≤ ${MAX_RSS_MB} MB RSS`,
    `≤ ${MAX_CONNECTIONS} Redis connections`,
    `idle ≤ ${MAX_IDLE_CPU} % of a core`,
  ],
});

export const officesMeasure: Measure = {
  name: 'offices',
  lines: OFFICES.map(spec),
  run: async (scale) => {
    const counts = OFFICES.map((n) => Math.max(1, Math.round(n * scale)));
    const most = Math.max(...counts);
    const tokens = Array.from({ length: most }, (_, i) => `bench-office-${i}-${randomUUID()}`);
    const folder = await tempFolder('bench-offices');
    try {
      const redis = await startPrivateRedis(join(folder.path, 'redis'));
      const sandbox = await startSandboxProcess(0, { tokens });
      const stopSandbox = onCleanup(() => sandbox.stop());
      try {
        const lines: Line[] = [];
        for (const [i, offices] of counts.entries()) {
          const before = loadNow();
          progress(`offices: watch with ${offices} offices… (load ${before.loadavg.join(' ')})`);
          const figures = await measureOfficesWatch({
            offices,
            tokens,
            apiUrl: sandbox.url,
            redisUrl: redis.url,
            prefix: `{${BENCH_TAG}offices-${randomUUID()}}`,
            dir: join(folder.path, `offices-${offices}`),
            dashboardPort: await freePort(),
            settleMs: SETTLE_MS,
            idleMs: IDLE_MS,
            startTimeoutMs: 300_000,
          });
          progress(`offices: ${JSON.stringify(figures)}`);
          lines.push(
            officesLine(spec(OFFICES[i] ?? offices), figures, { before, after: loadNow() }),
          );
        }
        return lines;
      } finally {
        await stopSandbox();
        await redis.stop();
      }
    } finally {
      await folder.remove();
    }
  },
};

function officesLine(spec: LineSpec, f: OfficesWatchFigures, load: Line['load']): Line {
  const met =
    f.startSeconds <= MAX_START_S &&
    f.peakRssMB <= MAX_RSS_MB &&
    f.peakRedisConnections <= MAX_CONNECTIONS &&
    f.idleCpuPercent <= MAX_IDLE_CPU;
  return line(spec, {
    status: met ? 'met' : 'NOT met',
    product: [
      `${f.offices} offices`,
      `start ${f.startSeconds.toFixed(1)} s`,
      `${Math.round(f.rssMB)} MB RSS (peak ${Math.round(f.peakRssMB)})`,
      `${f.redisConnections} Redis connections (peak ${f.peakRedisConnections})`,
      `idle ${f.idleCpuPercent.toFixed(1)} % of a core`,
      `stopped in ${f.stopSeconds.toFixed(1)} s`,
    ],
    peers: [],
    figures: { ...f },
    load,
  });
}
