import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SandboxOptionsInput } from '../../sandbox/options.js';
import type { ApiClient, RawAnswer } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

/** A Thursday morning, on a whole second. */
const START = Date.UTC(2026, 10, 26, 9, 0, 0);
const DAY_MS = 86_400_000;

function postClock(api: ApiClient, body: string): Promise<RawAnswer> {
  return api.send('POST', '/__sandbox/clock', {
    body,
    headers: { 'content-type': 'application/json' },
  });
}

async function clockedSandbox(input: SandboxOptionsInput = {}) {
  const real = { now: START };
  const sandbox = await testSandbox(input, { now: () => real.now });
  return { sandbox, real };
}

describe('the sandbox clock', () => {
  let sandbox: TestSandbox;
  let real: { now: number };
  beforeAll(async () => {
    ({ sandbox, real } = await clockedSandbox({ planning: 60 }));
  });
  afterAll(() => sandbox.close());

  it('tells the real time and no offset at first', async () => {
    const answer = await sandbox.api.send('GET', '/__sandbox/clock');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ now: new Date(START).toISOString(), offsetDays: 0 });
  });

  it('moves on by whole days, adding up, and tells the same afterwards', async () => {
    const first = await postClock(sandbox.api, '{"advanceDays": 3}');
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ now: new Date(START + 3 * DAY_MS).toISOString(), offsetDays: 3 });
    const second = await postClock(sandbox.api, '{"advanceDays": 4}');
    expect(second.json).toEqual({
      now: new Date(START + 7 * DAY_MS).toISOString(),
      offsetDays: 7,
    });
    real.now = START + 1000;
    const told = await sandbox.api.send('GET', '/__sandbox/clock');
    expect(told.json).toEqual({
      now: new Date(START + 1000 + 7 * DAY_MS).toISOString(),
      offsetDays: 7,
    });
  });

  it.each([
    ['{}', 'The advance days field is required.'],
    ['{"advanceDays": null}', 'The advance days field is required.'],
    ['not json', 'The advance days field is required.'],
    ['{"advanceDays": 0}', 'The advance days field must be at least 1.'],
    ['{"advanceDays": -2}', 'The advance days field must be at least 1.'],
    ['{"advanceDays": 3651}', 'The advance days field must not be greater than 3650.'],
    ['{"advanceDays": 1.5}', 'The advance days field must be an integer.'],
    ['{"advanceDays": "soon"}', 'The advance days field must be an integer.'],
    ['{"advanceDays": true}', 'The advance days field must be an integer.'],
    ['{"advanceDays": [2]}', 'The advance days field must be an integer.'],
  ])('refuses %s with a 422 in Laravel words, and stays where it was', async (body, message) => {
    const before = await sandbox.api.send('GET', '/__sandbox/clock');
    const answer = await postClock(sandbox.api, body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json).toEqual({ message, errors: { advanceDays: [message] } });
    expect((await sandbox.api.send('GET', '/__sandbox/clock')).json).toEqual(before.json);
  });

  it('wants a token, and answers another method with a 405', async () => {
    const anonymous = sandbox.api.withToken(null);
    expect((await anonymous.send('GET', '/__sandbox/clock')).status).toBe(401);
    expect((await postClock(anonymous, '{"advanceDays": 1}')).status).toBe(401);
    const put = await sandbox.api.send('PUT', '/__sandbox/clock');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
  });

  it('dates new orders on its own clock, and plans them as usual from there', async () => {
    const created = await sandbox.api.createOrder(validOrder());
    expect(created.status, created.text).toBe(201);
    const { id } = created.json as { id: number };
    const clock = (await sandbox.api.send('GET', '/__sandbox/clock')).json as { now: string };
    const listed = (await sandbox.api.listOrders()).find((o) => o.id === id);
    expect(Date.parse(String(listed?.created_at))).toBe(Date.parse(clock.now));
    expect(listed?.status).toBe('to schedule');
    real.now += 61_000;
    const read = await sandbox.api.getOrder(id);
    expect((read.json as { data: { status: string } }).data.status).toMatch(
      /^(scheduled|cancelled)$/,
    );
  });
});

describe('the sandbox clock with a data folder', () => {
  it('keeps its offset across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sandbox-clock-'));
    try {
      const first = await clockedSandbox({ dataDir });
      expect((await postClock(first.sandbox.api, '{"advanceDays": 12}')).status).toBe(200);
      await first.sandbox.close();

      const second = await clockedSandbox({ dataDir });
      try {
        const told = await second.sandbox.api.send('GET', '/__sandbox/clock');
        expect(told.json).toEqual({
          now: new Date(START + 12 * DAY_MS).toISOString(),
          offsetDays: 12,
        });
      } finally {
        await second.sandbox.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts without an offset in memory', async () => {
    const { sandbox } = await clockedSandbox();
    try {
      const told = await sandbox.api.send('GET', '/__sandbox/clock');
      expect((told.json as { offsetDays: number }).offsetDays).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
