import { setTimeout as sleep } from 'node:timers/promises';

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningMetricsServer, startMetricsServer } from '../../src/metrics/server.js';
import { ProcessHealth } from '../../src/workers/health.js';
import { tempDir } from '../helpers/files.js';
import { scrape } from '../helpers/metrics.js';
import { type TestPipeline, testPipeline, waitForReport } from '../helpers/pipeline.js';
import { submitSheet } from '../../src/intake/submit.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

/** A worker whose token the API refuses (it was revoked while it ran). */
let pipeline: TestPipeline;
let health: ProcessHealth;
let server: RunningMetricsServer;
beforeAll(async () => {
  pipeline = await testPipeline({ token: 'revoked-token' });
  health = new ProcessHealth({ apiWaitMs: 300_000, logger: pino({ level: 'silent' }) });
  server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    metrics: pipeline.ctx.metrics,
    health: () => health.health(),
    readiness: () => health.readiness(),
  });
});
afterAll(async () => {
  await server.close();
  await pipeline.close();
});

describe('/healthz and /readyz of a working process', () => {
  it('says starting, then ready and healthy, and refuses any other path', async () => {
    const starting = await scrape(`${server.url}/readyz`);
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.text)).toMatchObject({ status: 'starting' });
    health.started([pipeline.ctx]);
    const ready = await scrape(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const healthy = await scrape(`${server.url}/healthz`);
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.text)).toEqual({ status: 'ok', reasons: [], redis: true, api: true });
    expect((await scrape(`${server.url}/`)).status).toBe(404);
    expect((await scrape(`${server.url}/metrics/../queues`)).status).toBe(404);
    expect((await scrape(`${server.url}/healthz/x`)).status).toBe(404);
  });

  it('answers 503 with the reason once the API refuses the token', async () => {
    health.started([pipeline.ctx]);
    const dir = await tempDir('refused-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1)]);
    const { sheetId } = await submitSheet(pipeline.ctx, path);
    await expect(waitForReport(pipeline.ctx, sheetId, 30_000)).rejects.toThrow(/import stopped/);
    const answer = await scrape(`${server.url}/healthz`);
    expect(answer.status).toBe(503);
    const body = JSON.parse(answer.text) as { status: string; reasons: string[]; api: boolean };
    expect(body.status).toBe('unavailable');
    expect(body.api).toBe(false);
    expect(body.reasons.join('\n')).toMatch(/refused the token \(401\)/);
    expect(answer.text).not.toContain('revoked-token');
  }, 60_000);

  it('answers 503 once the API has been away for longer than API_WAIT_S, and 200 on its return', async () => {
    const impatient = new ProcessHealth({ apiWaitMs: 0, logger: pino({ level: 'silent' }) });
    impatient.started([pipeline.ctx]);
    const reasons = async () => (await impatient.health()).reasons.join('\n');
    expect(await reasons()).not.toMatch(/has not answered/);
    pipeline.ctx.outages.api.failed(new Error('connect ECONNREFUSED'));
    while (pipeline.ctx.outages.api.lasted() === 0) await sleep(5);
    expect(await reasons()).toMatch(/has not answered for \d+ s, longer than API_WAIT_S \(0 s\)/);
    pipeline.ctx.outages.api.recovered();
    expect(await reasons()).not.toMatch(/has not answered/);
  });

  it('is not ready once a stop begins', async () => {
    health.stopping();
    const answer = await scrape(`${server.url}/readyz`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'stopping' });
  });
});
