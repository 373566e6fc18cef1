import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { routeOf } from '../../src/api/client.js';
import { type RunningMetricsServer, startMetricsServer } from '../../src/metrics/server.js';
import type { Summary } from '../../src/report/report.js';
import { tempDir } from '../helpers/files.js';
import { parseMetrics, sumBy, scrape } from '../helpers/metrics.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let pipeline: TestPipeline;
let server: RunningMetricsServer;
beforeAll(async () => {
  // Injected 503s (retried at once): they must be counted as the sandbox answered them.
  pipeline = await testPipeline({
    sandbox: { faults: { p503: 0.3, retryAfterSeconds: 0, seed: 7 } },
  });
  server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    metrics: pipeline.ctx.metrics,
    health: () => Promise.reject(new Error('not asked here')),
    readiness: () => Promise.reject(new Error('not asked here')),
  });
});
afterAll(async () => {
  await server.close();
  await pipeline.close();
});

describe('/metrics after an import', () => {
  it("counts the report's rows by status and the sandbox's requests by route and code", async () => {
    const dir = await tempDir('metrics-');
    const mixed = await writeCsvSheet(dir, 'mixed.csv', [
      sheetRow(1),
      sheetRow(2, { city: '' }),
      sheetRow(3),
      sheetRow(1), // the same order again: a duplicate
    ]);
    const summaries: Summary[] = [];
    for (const path of [mixed, 'samples/orders.csv']) {
      const progress = await pipeline.importSheet(path, 60_000);
      summaries.push(
        JSON.parse(
          await readFile(join(progress.reportDir ?? '', 'summary.json'), 'utf8'),
        ) as Summary,
      );
    }
    const scraped = await scrape(`${server.url}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseMetrics(scraped.text);

    const reported: Record<string, number> = {};
    const statuses = [
      ['created', 'created'],
      ['invalid', 'invalid'],
      ['failed', 'failed'],
      ['needs-review', 'needsReview'],
      ['duplicate', 'duplicate'],
    ] as const;
    for (const summary of summaries)
      for (const [status, field] of statuses)
        if (summary[field] > 0)
          reported[`test ${status}`] = (reported[`test ${status}`] ?? 0) + summary[field];
    expect(reported['test invalid']).toBeGreaterThan(0);
    expect(sumBy(samples, 'order_importer_rows_total', ['connection', 'status'])).toEqual(reported);

    const log = (await (
      await fetch(`${pipeline.sandbox.url}/__sandbox/requests`, {
        headers: { authorization: `Bearer ${pipeline.sandbox.tokens[0]?.token ?? ''}` },
      })
    ).json()) as {
      data: Array<{ method: string; path: string; status: number | null }>;
    };
    const seen: Record<string, number> = {};
    for (const entry of log.data) {
      const key = `test ${entry.method} ${routeOf(entry.path)} ${String(entry.status)}`;
      seen[key] = (seen[key] ?? 0) + 1;
    }
    expect(Object.keys(seen).some((key) => key.endsWith(' 503'))).toBe(true);
    expect(Object.keys(seen).some((key) => key.includes(' /api/files/ 20'))).toBe(true);
    expect(
      sumBy(samples, 'order_importer_api_requests_total', [
        'connection',
        'method',
        'route',
        'code',
      ]),
    ).toEqual(seen);
    // The histogram counts the same requests, by route without the code.
    const counted = sumBy(samples, 'order_importer_api_request_duration_seconds_count', ['route']);
    expect(Object.values(counted).reduce((a, b) => a + b, 0)).toBe(log.data.length);
    expect(scraped.text).not.toMatch(/route="\/api\/orders\/\d/);

    expect(sumBy(samples, 'order_importer_sheets_total', ['state'])).toEqual({
      queued: 2,
      reported: 2,
    });
    const queues = sumBy(samples, 'order_importer_queue_jobs', ['state']);
    expect(queues.completed).toBeGreaterThan(0);
    expect(queues.waiting).toBe(0);
  }, 120_000);
});
