import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiClient, RawAnswer } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

const START = Date.UTC(2026, 10, 26, 9, 0, 0);

function replan(api: ApiClient, id: number | string, body: unknown): Promise<RawAnswer> {
  return api.send('POST', `/__sandbox/orders/${id}/planning`, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

interface Read {
  status: string;
  cancel_reason: string | null;
  inspections: Array<{ product_id: string; date: string | null; inspector_name: string | null }>;
}

describe("the sandbox's planners told to plan an order anew", () => {
  let sandbox: TestSandbox;
  const clock = { now: START };
  beforeAll(async () => {
    sandbox = await testSandbox({ planning: 60 }, { now: () => clock.now });
  });
  afterAll(() => sandbox.close());

  async function planned(): Promise<number> {
    const made = await sandbox.api.createOrder(
      validOrder({
        order_products: [
          { id: 'EPC', quantity: 1 },
          { id: 'ELEC-1.1', quantity: 1 },
        ],
        breaker_boxes: 2,
      }),
    );
    clock.now += 120_000;
    return (made.json as { id: number }).id;
  }

  it('moves an inspection to another date and inspector, the others kept', async () => {
    const id = await planned();
    const before = (await sandbox.api.getOrder(id)).json as { data: Read };
    const answer = await replan(sandbox.api, id, {
      inspections: [{ date: '2026-12-24 09:30:00', inspector_name: 'Kevin Claes' }],
    });
    expect(answer.status, answer.text).toBe(200);
    const after = ((await sandbox.api.getOrder(id)).json as { data: Read }).data;
    expect(after.inspections[0]).toMatchObject({
      date: '2026-12-24 09:30:00',
      inspector_name: 'Kevin Claes',
    });
    expect(after.inspections[1]).toEqual(before.data.inspections[1]);
    expect(after.status).toBe(before.data.status);
  });

  it('cancels an order with a reason', async () => {
    const id = await planned();
    const answer = await replan(sandbox.api, id, {
      status: 'cancelled',
      cancel_reason: 'Verkocht.',
    });
    expect(answer.status, answer.text).toBe(200);
    const after = ((await sandbox.api.getOrder(id)).json as { data: Read }).data;
    expect(after).toMatchObject({ status: 'cancelled', cancel_reason: 'Verkocht.' });
    expect(after.inspections.every((i) => i.date !== null)).toBe(true);
  });

  it('refuses what it cannot store with a 422, and an unknown order with a 404', async () => {
    const id = await planned();
    expect((await replan(sandbox.api, id, { inspections: [{ date: 'tomorrow' }] })).status).toBe(
      422,
    );
    expect((await replan(sandbox.api, id, { inspections: [{}, {}, {}] })).status).toBe(422);
    expect((await replan(sandbox.api, id, { status: '' })).status).toBe(422);
    expect((await replan(sandbox.api, 999_999, { status: 'done' })).status).toBe(404);
  });
});
