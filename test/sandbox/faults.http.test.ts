import { afterEach, describe, expect, it } from 'vitest';

import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

const open: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function faulty(faults: SandboxOptionsInput['faults']): Promise<TestSandbox> {
  const sandbox = await testSandbox({ faults });
  open.push(sandbox);
  return sandbox;
}

/** How undici reports a connection reset by the peer. */
const DROPPED = /^error:(ECONNRESET|UND_ERR_SOCKET)$/;

/** What a client sees for one create: a status, or the network error's code. */
async function outcome(sandbox: TestSandbox, order = validOrder()): Promise<string> {
  try {
    return String((await sandbox.api.createOrder(order)).status);
  } catch (error) {
    return `error:${(error as { code?: string }).code ?? (error as Error).message}`;
  }
}

describe('injected faults', () => {
  it('answers 503 with Retry-After before any work', async () => {
    const sandbox = await faulty({ p503: 1, retryAfterSeconds: 7 });
    const answer = await sandbox.api.createOrder(validOrder());
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ message: 'Service Unavailable' });
    expect(answer.headers['retry-after']).toBe('7');
    expect((await sandbox.api.getOrder(1)).status).toBe(503);
    // The sandbox-only listing is never faulted: tests must be able to count.
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('resets the connection before any work: nothing is stored', async () => {
    const sandbox = await faulty({ pResetBefore: 1 });
    expect(await outcome(sandbox)).toMatch(DROPPED);
    expect(await sandbox.api.listOrders()).toEqual([]);
  });

  it('answers 500 after the order is stored', async () => {
    const sandbox = await faulty({ p500After: 1 });
    const answer = await sandbox.api.createOrder(validOrder({ contact_name: 'Stored anyway' }));
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ message: 'Server Error' });
    const orders = await sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name)).toEqual(['Stored anyway']);
  });

  it('resets the connection after the order is stored', async () => {
    const sandbox = await faulty({ pResetAfter: 1 });
    expect(await outcome(sandbox, validOrder({ contact_name: 'Lost answer' }))).toMatch(DROPPED);
    const orders = await sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name)).toEqual(['Lost answer']);
  });

  it('faults file uploads after they are stored too', async () => {
    const sandbox = await faulty({ p500After: 1 });
    // The create is faulted as well, but the order exists: take its id from the listing.
    await sandbox.api.createOrder(validOrder());
    const [order] = await sandbox.api.listOrders();
    const answer = await sandbox.api.upload(order?.id ?? 0, [
      { name: 'a.txt', data: Buffer.from('x') },
    ]);
    expect(answer.status).toBe(500);
    const [after] = await sandbox.api.listOrders();
    expect(after?.files.map((f) => f.file_name)).toEqual(['a.txt']);
  });

  it('does not fault requests that fail validation: nothing was stored', async () => {
    const sandbox = await faulty({ p500After: 1, pResetAfter: 0 });
    expect((await sandbox.api.createOrder({})).status).toBe(422);
  });

  it('adds the asked latency', async () => {
    const sandbox = await faulty({ latencyMs: 250 });
    const started = performance.now();
    await sandbox.api.getOrder(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(245);
  });

  it('replays the same faults for the same seed, and others for another seed', async () => {
    const mixed = { p503: 0.25, pResetBefore: 0.15, p500After: 0.2, pResetAfter: 0.1 };
    const run = async (seed: number) => {
      const sandbox = await faulty({ ...mixed, seed });
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++) outcomes.push(await outcome(sandbox));
      return outcomes;
    };
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(await run(43)).not.toEqual(first);
    // Every kind of fault showed up in the run, so the comparison means something.
    expect(new Set(first.map((o) => (o.startsWith('error:') ? 'reset' : o)))).toEqual(
      new Set(['201', '500', '503', 'reset']),
    );
  });
});
