import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import type { ApiAnswer } from '../../src/api/rate-headers.js';
import { type Context, openContext } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import { PACE_PEEK_MS as PEEK_MS } from '../../src/policy.js';
import { startWorkers } from '../../src/workers/start.js';
import { closeContext } from '../../src/workers/stop.js';
import { sandboxRequests } from '../helpers/api.js';
import { monitorRedis } from '../helpers/redis-monitor.js';
import { eventually } from '../helpers/eventually.js';
import { tempDir } from '../helpers/files.js';
import {
  type TestPipeline,
  type TestPipelineOptions,
  testPipeline,
  testPipelineConfig,
  waitForReport,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function pipelineWith(options: TestPipelineOptions): Promise<TestPipeline> {
  const t = await testPipeline(options);
  closing.push(() => t.close());
  return t;
}

/** Another process's worth of workers: its own context and client, on the same Redis prefix. */
async function secondProcess(t: TestPipeline): Promise<Context> {
  const dispatcher = new Agent();
  const config = await testPipelineConfig({ ...t, dispatcher, logger: t.config.logger });
  const ctx = await openContext({ ...config, settings: { ...config.settings, concurrency: 3 } });
  await startWorkers(ctx);
  closing.push(async () => {
    await closeContext(ctx, { graceMs: 2000 });
    await dispatcher.close();
  });
  return ctx;
}

/** Every answer a context's client hears. */
function answersOf(ctx: Context): ApiAnswer[] {
  const heard: ApiAnswer[] = [];
  ctx.api.onAnswer((answer) => heard.push(answer));
  return heard;
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => sheetRow(i + 1));

describe('a rate limit the API advertises only in its headers (API_RATE_LIMIT unset)', () => {
  it('is learned, said once, and kept by two processes together', async () => {
    const t = await pipelineWith({
      sandbox: { rateLimit: 10, rateWindowMs: 1000 },
      settings: { concurrency: 3 },
    });
    const other = await secondProcess(t);
    const heard = [answersOf(t.ctx), answersOf(other)];
    const dir = await tempDir('learned-');
    const progress = await t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows(30)), 60_000);
    expect(progress.counts.created).toBe(30);

    const requests = await sandboxRequests(t.sandbox.api);
    // Kept at the limit, with next to no 429s (DESIGN §4): unpaced, six workers would meet about
    // twenty in the first window. A request spaced by the pace that leaves late on a busy machine
    // may still land in the next window with its own: one such refusal is obeyed, not a fault.
    const refused = requests.filter((r) => r.status === 429);
    expect(refused.length).toBeLessThanOrEqual(1);
    expect(requests).toHaveLength(30 + refused.length);
    // Both processes sent requests, and every answer was heard by one of them.
    expect(heard.map((answers) => answers.length > 0)).toEqual([true, true]);
    expect(heard.flat()).toHaveLength(30 + refused.length);
    const told = t.logs.filter((line) => line.includes('requests per window'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('"limit":10');
  });

  it('never sends a request after a Remaining of 0 before its window resets', async () => {
    const windowMs = 1000;
    const t = await pipelineWith({
      sandbox: { rateLimit: 10, rateWindowMs: windowMs },
      settings: { concurrency: 3 },
    });
    const heard = answersOf(t.ctx);
    // Another client of the same token spends all but one of a window the importer has begun,
    // once the pace knows the window's length: the importer's next answer says 0 long before its
    // schedule expects, however fast the importer goes (a busy machine slows it below the limit,
    // and a share of each window spent at a fixed pace then never brought it to 0).
    const state = { imported: false };
    const importing = () => !state.imported;
    const until = (what: () => boolean, says: string) =>
      eventually(
        () => (what() || !importing() ? true : undefined),
        () => says,
        60_000,
      );
    const other = (async () => {
      await until(
        () => t.logs.some((line) => line.includes('window is about')),
        'no window learned',
      );
      for (let round = 0; round < 3 && importing(); round++) {
        const from = heard.length;
        const begun = () =>
          heard.slice(from).some((a) => a.headers['x-ratelimit-remaining'] === '9');
        await until(begun, 'no window begun by the importer');
        for (let left = 9; left > 1 && importing();) {
          const answer = await t.sandbox.api.getOrder(424242);
          left = answer.status === 429 ? 0 : Number(answer.headers['x-ratelimit-remaining']);
        }
      }
    })();
    const dir = await tempDir('spent-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', rows(40));
    const progress = await t.importSheet(sheet, 60_000).finally(() => (state.imported = true));
    await other;
    expect(progress.counts.created).toBe(40);

    // The sandbox's windows, as its throttle opened them: at the first request after the last.
    const requests = await sandboxRequests(t.sandbox.api);
    const resets: number[] = [];
    for (const r of requests)
      if (resets.length === 0 || r.at >= (resets.at(-1) ?? 0)) resets.push(r.at + windowMs);
    const resetAfter = (at: number) => resets.find((reset) => reset > at) ?? Infinity;
    const spent = heard.filter((a) => a.headers['x-ratelimit-remaining'] === '0');
    expect(spent.length).toBeGreaterThan(0);
    const slack = 20; // the sandbox's clock is read twice per request
    for (const answer of spent) {
      const reset = resetAfter(answer.sentAt - slack);
      // Sent by the importer once it had heard the 0: a request that left before may still
      // reach the sandbox after it on a busy machine, and was no decision of the pace's.
      const early = heard.filter((a) => a.sentAt > answer.receivedAt && a.sentAt < reset - slack);
      expect(early, `sent after the 0 heard at ${answer.receivedAt}`).toEqual([]);
    }
  });

  it('obeys a 429: no worker sends anything while a Retry-After it heard runs', async () => {
    const t = await pipelineWith({
      sandbox: { rateLimit: 3, rateWindowMs: 2000 },
      settings: { concurrency: 3 },
    });
    const other = await secondProcess(t);
    const heardBy = [answersOf(t.ctx), answersOf(other)];
    // Someone else with the same token spends the window first.
    for (let i = 0; i < 3; i++) await t.sandbox.api.getOrder(424242);

    const dir = await tempDir('refused-');
    const progress = await t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows(6)), 60_000);
    expect(progress.counts.created).toBe(6);

    // Laravel's Retry-After counts whole seconds from the second its window began: up to a
    // second early, and a request at its end may be refused again (with a Retry-After of 0,
    // waited as a second). What is obeyed is each Retry-After as it was heard: by the process
    // that heard it at once (a request whose turn came before waits too), by the other once
    // it looks at the fleet's pace again (within PEEK_MS, or its next slot's check).
    const heard = heardBy.flat();
    const refusals = heard.filter((a) => a.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    for (const [i, own] of heardBy.entries()) {
      for (const refusal of own.filter((a) => a.status === 429)) {
        const seconds = Number(refusal.headers['retry-after']);
        const until = refusal.receivedAt + Math.max(seconds * 1000, 1000);
        const sentBy = (answers: ApiAnswer[], after: number) =>
          answers.filter((a) => a.sentAt > refusal.receivedAt + after && a.sentAt < until);
        const others = heardBy.filter((_, j) => j !== i).flat();
        const at = `the Retry-After heard at ${refusal.receivedAt}`;
        expect(sentBy(own, 1), `sent by its process during ${at}`).toEqual([]);
        expect(sentBy(others, PEEK_MS), `sent by the other during ${at}`).toEqual([]);
      }
    }
    // One request learns when the window ends; the rest wait for it: a few refusals, not a storm.
    expect(refusals.length).toBeLessThanOrEqual(3);
  });
});

describe('no rate limit known (API_RATE_LIMIT unset, none advertised)', () => {
  it('costs no Redis call per request: the pace looks at the fleet a few times a second at most', async () => {
    const t = await pipelineWith({ settings: { concurrency: 4 } });
    const calls: number[] = [];
    const pace = `{${t.redis.prefix}}`;
    const monitor = await monitorRedis(t.redis.url, ({ source, args }) => {
      const script = args[0]?.startsWith('eval') === true;
      if (script && source !== 'lua' && args.some((a) => a.includes(pace) && a.endsWith(':pace')))
        calls.push(1);
    });
    try {
      const dir = await tempDir('unlimited-');
      const started = Date.now();
      const sheet = await writeCsvSheet(dir, 'orders.csv', rows(60));
      const progress = await t.importSheet(sheet, 60_000);
      const seconds = (Date.now() - started) / 1000;
      expect(progress.counts.created).toBe(60);
      expect((await sandboxRequests(t.sandbox.api)).length).toBe(60);
      // One look per PEEK_MS (200 ms) at most, whatever the number of requests.
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 5) + 1);
      expect(calls.length).toBeLessThan(60);
    } finally {
      monitor.stop();
    }
  });
});

describe('API_RATE_LIMIT set', () => {
  it('spends its budget on requests, not on row jobs: rows that send nothing are not held to it', async () => {
    const t = await pipelineWith({ workers: false });
    const dir = await tempDir('budget-');
    const first = await openContext(t.config);
    await startWorkers(first);
    try {
      const sheet = await writeCsvSheet(dir, 'orders.csv', rows(4));
      expect((await submitAndWait(first, sheet)).counts.created).toBe(4);
    } finally {
      await closeContext(first);
    }
    // One request a minute: the same rows again (other bytes) are each `duplicate` from the
    // ledger, without a request, so they owe the budget nothing and end at once.
    const limited = await openContext({
      ...t.config,
      settings: { ...t.config.settings, apiRateLimit: 1 },
    });
    closing.push(() => closeContext(limited));
    await startWorkers(limited);
    const again = await writeCsvSheet(dir, 'again.csv', rows(4).reverse());
    const progress = await submitAndWait(limited, again);
    expect(progress.counts.duplicate).toBe(4);
    expect(await sandboxRequests(t.sandbox.api)).toHaveLength(4);
  }, 60_000);
});

/**
 * Queues a sheet on this context and waits for its report: for less than the budget's minute,
 * which a row job held to it would wait for.
 */
async function submitAndWait(ctx: Context, path: string) {
  const { sheetId } = await submitSheet(ctx, path);
  return waitForReport(ctx, sheetId, 25_000);
}
