import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { ApiError, type ApiErrorDetails } from '../../src/api/errors.js';
import { UserError } from '../../src/errors.js';
import { waitForApi } from '../../src/app/wait-for-api.js';

const BASE = 'http://api.test';

function apiError(details: Partial<ApiErrorDetails> & Pick<ApiErrorDetails, 'kind'>): ApiError {
  const what = details.status ?? details.code ?? 'unreadable';
  return new ApiError(`GET ${BASE}/api/orders/0 failed: ${what}.`, {
    method: 'GET',
    url: `${BASE}/api/orders/0`,
    ...details,
  });
}

const refused = () => apiError({ kind: 'retryable', code: 'ECONNREFUSED' });
const busy = (retryAfterMs?: number) =>
  apiError({ kind: 'retryable', status: 503, ...(retryAfterMs !== undefined && { retryAfterMs }) });

/** A clock that only moves when the waiting sleeps (or a check takes time). */
function harness(answers: Array<ApiError | undefined>, options: { waitS?: number } = {}) {
  let clock = 1_000_000;
  const slept: number[] = [];
  const said: string[] = [];
  const logs: Array<{ level: number; msg: string; [key: string]: unknown }> = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => logs.push(JSON.parse(line) as (typeof logs)[number]) },
  );
  let checks = 0;
  const controller = new AbortController();
  const run = () =>
    waitForApi(
      () => {
        checks += 1;
        clock += 10;
        return Promise.resolve(answers.length > 1 ? answers.shift() : answers[0]);
      },
      {
        baseUrl: BASE,
        waitS: options.waitS ?? 300,
        announce: (line) => said.push(line),
        logger,
        signal: controller.signal,
        now: () => clock,
        sleep: (ms, signal) => {
          if (signal?.aborted) return Promise.reject(new Error('aborted'));
          slept.push(ms);
          clock += ms;
          return Promise.resolve();
        },
      },
    );
  return { run, slept, said, logs, controller, checks: () => checks };
}

describe('waitForApi', () => {
  it('goes on at once, saying nothing, when the API answers', async () => {
    const h = harness([undefined]);
    await h.run();
    expect(h.said).toEqual([]);
    expect(h.slept).toEqual([]);
    expect(h.logs).toEqual([]);
  });

  it('waits out three 503s as Retry-After asks, and says so once, then once more', async () => {
    const h = harness([busy(1000), busy(1000), busy(1000), undefined]);
    await h.run();
    expect(h.checks()).toBe(4);
    expect(h.slept).toEqual([1000, 1000, 1000]);
    expect(h.said).toHaveLength(2);
    expect(h.said[0]).toBe(
      `The API at ${BASE} does not answer (GET ${BASE}/api/orders/0 failed: 503.): waiting up to 300 s for it (API_WAIT_S).`,
    );
    expect(h.said[1]).toBe(`The API at ${BASE} answers now, after 3 s.`);
  });

  it('logs what it said in plain words only at debug, the first failure with its message', async () => {
    const h = harness([refused(), refused(), refused(), undefined]);
    await h.run();
    expect(h.logs.map((l) => [l.level, l.msg])).toEqual([
      [20, `The API at ${BASE} does not answer`],
      [20, `The API at ${BASE} still does not answer`],
      [20, `The API at ${BASE} still does not answer`],
      [20, `The API at ${BASE} answers now`],
    ]);
    expect(h.logs[0]?.reason).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(h.logs)).not.toMatch(/stack|"err"/);
  });

  it('backs off by doubling, up to a cap, where no Retry-After says when', async () => {
    const h = harness([...Array.from({ length: 7 }, refused), busy(200), refused(), undefined]);
    await h.run();
    expect(h.slept).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 200, 5000]);
  });

  it('waits a second for a Retry-After of 0 (Laravel in the last second of a window, still refusing)', async () => {
    const h = harness([busy(0), busy(0), undefined]);
    await h.run();
    expect(h.slept).toEqual([1000, 1000]);
  });

  it('gives up after API_WAIT_S with one line that names the setting, having said one', async () => {
    const h = harness([refused()], { waitS: 2 });
    const error = await h.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(1);
    expect((error as UserError).message).toBe(
      `The API at ${BASE} did not answer within 2 s (API_WAIT_S): GET ${BASE}/api/orders/0 failed: ECONNREFUSED. Check that it runs and that API_BASE_URL is right, or raise API_WAIT_S.`,
    );
    expect((error as UserError).message).not.toContain('\n');
    expect(h.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(h.said).toHaveLength(1);
  });

  it('never sleeps past the end of API_WAIT_S, whatever Retry-After asks', async () => {
    const h = harness([busy(60_000)], { waitS: 5 });
    await expect(h.run()).rejects.toThrow(/did not answer within 5 s/);
    expect(Math.max(...h.slept)).toBeLessThanOrEqual(5000);
  });

  it('does not wait at all with API_WAIT_S 0', async () => {
    const h = harness([refused()], { waitS: 0 });
    await expect(h.run()).rejects.toThrow(/did not answer within 0 s/);
    expect(h.slept).toEqual([]);
    expect(h.said).toEqual([]);
  });

  it.each([401, 403])('stops at once on a %i, even after 503s', async (status) => {
    const h = harness([busy(1000), apiError({ kind: 'auth', status })]);
    await expect(h.run()).rejects.toThrow(
      `The API at ${BASE} refused the token (GET ${BASE}/api/orders/0 failed: ${status}.): check API_TOKEN / API_TOKEN_FILE.`,
    );
    expect(h.checks()).toBe(2);
  });

  it('stops at once when the API cannot be used at all (a 500, a redirect)', async () => {
    for (const error of [
      apiError({ kind: 'ambiguous', status: 500 }),
      apiError({ kind: 'config', status: 301 }),
    ]) {
      const h = harness([error]);
      await expect(h.run()).rejects.toThrow(/^The API at http:\/\/api\.test cannot be used: /);
      expect(h.slept).toEqual([]);
    }
  });

  it('stops waiting, with exit code 0, when the signal comes', async () => {
    const h = harness([refused()]);
    h.controller.abort();
    const error = await h.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(0);
    expect((error as UserError).message).toBe(`Stopped while waiting for the API at ${BASE}.`);
  });
});
