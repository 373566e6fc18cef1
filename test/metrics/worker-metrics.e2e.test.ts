/**
 * `worker` with METRICS_PORT, the built binary: /metrics, /healthz and /readyz on their own port,
 * and /healthz saying 503 with the reason when its Redis (a redis-server of this test's own) stops.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { parseMetrics, scrape } from '../helpers/metrics.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let redis: LocalRedis;
let sandbox: TestSandbox;
let worker: CliProcess;
let base: string;

/** Asks `url` until `done` says yes (the machine is shared: generous, never timed). */
async function until(
  url: string,
  done: (answer: { status: number; text: string }) => boolean,
  timeoutMs = 60_000,
): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + timeoutMs;
  let last: { status: number; text: string } | undefined;
  while (Date.now() < deadline) {
    last = await scrape(url).catch(() => undefined);
    if (last !== undefined && done(last)) return last;
    await sleep(200);
  }
  throw new Error(
    `${url} never answered as expected; last: ${JSON.stringify(last)}\n${worker.stderr}`,
  );
}

beforeAll(async () => {
  redis = await startLocalRedis({ dir: await tempDir('metrics-redis-') });
  sandbox = await testSandbox();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  worker = orderImporter(['worker'], {
    REDIS_URL: redis.url,
    API_BASE_URL: sandbox.url,
    API_TOKEN: sandbox.tokens[0]?.token ?? '',
    DATA_DIR: await tempDir('metrics-data-'),
    METRICS_PORT: String(port),
    METRICS_HOST: '127.0.0.1',
  });
}, 60_000);
afterAll(async () => {
  worker.signal('SIGKILL');
  await worker.finished;
  await redis.stop().catch(() => undefined);
  await sandbox.close();
});

describe('worker with METRICS_PORT', () => {
  it('serves /metrics, /healthz and /readyz, and nothing else', async () => {
    await until(`${base}/readyz`, (a) => a.status === 200);
    expect(worker.stderr).toContain(`Metrics: ${base}/metrics`);
    const scraped = await scrape(`${base}/metrics`);
    expect(scraped.status).toBe(200);
    const names = new Set(parseMetrics(scraped.text).map((s) => s.name));
    expect(names).toContain('order_importer_queue_jobs');
    expect(names).toContain('process_cpu_user_seconds_total');
    for (const name of ['rows_total', 'sheets_total', 'api_requests_total'])
      expect(scraped.text).toContain(`# TYPE order_importer_${name} counter`);
    expect(scraped.text).toContain('# TYPE order_importer_api_request_duration_seconds histogram');
    // The check at start went through the client: counted once, its id templated.
    expect(scraped.text).toMatch(
      /^order_importer_api_requests_total\{connection="default",method="GET",route="\/api\/orders\/\{id\}",code="404"\} 1$/m,
    );
    const healthy = await scrape(`${base}/healthz`);
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.text)).toMatchObject({ status: 'ok', redis: true, api: true });
    expect((await scrape(`${base}/queues`)).status).toBe(404);
    expect((await scrape(`${base}/`)).status).toBe(404);
  }, 90_000);

  it('answers /healthz 503 with the reason while Redis is stopped', async () => {
    await redis.stop();
    const down = await until(`${base}/healthz`, (a) => a.status === 503);
    const body = JSON.parse(down.text) as { status: string; reasons: string[]; redis: boolean };
    expect(body).toMatchObject({ status: 'unavailable', redis: false });
    expect(body.reasons.join('\n')).toMatch(/Redis does not answer/);
    expect((await scrape(`${base}/readyz`)).status).toBe(503);
    // A scrape still answers, with the queue counts it knew.
    expect((await scrape(`${base}/metrics`)).status).toBe(200);
  }, 90_000);
});
