import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { SandboxOptionsInput } from '../../sandbox/options.js';
import type { ApiClient } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

/** A Thursday morning, on a whole second (the sandbox keeps creation times to the second). */
const START = Date.UTC(2026, 10, 26, 9, 0, 0);
const PLANNING_S = 60;
const BATCH = 40;
const DAY_MS = 86_400_000;

interface ReadInspection {
  product_id: string;
  product_name: string;
  date: string | null;
  inspector_name: string | null;
}

interface ReadOrder {
  status: string;
  cancel_reason: string | null;
  habbitable_space: unknown;
  inspections: ReadInspection[];
}

/** A sandbox whose clock the test moves. */
async function clockedSandbox(input: SandboxOptionsInput) {
  const clock = { now: START };
  const sandbox = await testSandbox(input, { now: () => clock.now });
  return { sandbox, clock };
}

/** `BATCH` orders, every third one with two products. */
async function createBatch(api: ApiClient): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < BATCH; i++) {
    const two = {
      order_products: [
        { id: 'EPC', quantity: 1 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
      breaker_boxes: 2,
    };
    const answer = await api.createOrder(validOrder(i % 3 === 0 ? two : {}));
    expect(answer.status, answer.text).toBe(201);
    ids.push((answer.json as { id: number }).id);
  }
  return ids;
}

async function readAll(api: ApiClient, ids: readonly number[]): Promise<ReadOrder[]> {
  const orders: ReadOrder[] = [];
  for (const id of ids) {
    const answer = await api.getOrder(id);
    expect(answer.status, answer.text).toBe(200);
    orders.push((answer.json as { data: ReadOrder }).data);
  }
  return orders;
}

/** What the planners decided of each order. */
const planOf = (orders: readonly ReadOrder[]) =>
  orders.map((o) => ({
    status: o.status,
    cancel_reason: o.cancel_reason,
    visits: o.inspections.map((i) => [i.date, i.inspector_name]),
  }));

/** `YYYY-MM-DD HH:MM:SS` read as if it were UTC: its wall-clock fields, for their hours and day. */
function wallClock(date: string | null): Date {
  return new Date(`${(date ?? '').replace(' ', 'T')}Z`);
}

const BRUSSELS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Brussels',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** How far Brussels' wall clock is ahead of UTC at `ms`. */
function brusselsOffset(ms: number): number {
  const parts = BRUSSELS.formatToParts(ms);
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * A visit's `YYYY-MM-DD HH:MM:SS`, the API's wall-clock time in Brussels (as the importer reads
 * it), in ms since the epoch. No visit falls in the night hour a clock change skips or repeats.
 */
function visitTime(date: string | null): number {
  const wall = wallClock(date).getTime();
  return wall - brusselsOffset(wall - brusselsOffset(wall));
}

function expectUnplanned(orders: readonly ReadOrder[]): void {
  for (const order of orders) {
    expect(order.status).toBe('to schedule');
    expect(order.cancel_reason).toBeNull();
    for (const inspection of order.inspections) {
      expect(inspection.date).toBeNull();
      expect(inspection.inspector_name).toBeNull();
    }
  }
}

describe('a sandbox with --planning', () => {
  let sandbox: TestSandbox;
  let clock: { now: number };
  let ids: number[];
  let planned: ReadOrder[];
  beforeAll(async () => {
    ({ sandbox, clock } = await clockedSandbox({
      planning: PLANNING_S,
      faults: { seed: 7 },
      tokens: [
        { token: 'token-acme', org: 'acme' },
        { token: 'token-beta', org: 'beta' },
      ],
    }));
    ids = await createBatch(sandbox.api);
  });
  afterAll(() => sandbox.close());

  it('leaves orders "to schedule", without dates or inspectors, until the delay has passed', async () => {
    expectUnplanned(await readAll(sandbox.api, ids));
    clock.now = START + PLANNING_S * 1000 - 1;
    expectUnplanned(await readAll(sandbox.api, ids));
  });

  it('then gives each inspection a working-day date and an inspector, and most orders "scheduled"', async () => {
    clock.now = START + PLANNING_S * 1000;
    planned = await readAll(sandbox.api, ids);
    const statuses = planned.map((o) => o.status);
    expect(new Set(statuses)).toEqual(new Set(['scheduled', 'cancelled']));
    expect(statuses.filter((s) => s === 'scheduled').length).toBeGreaterThanOrEqual(BATCH * 0.75);
    const inspections = planned.flatMap((o) => o.inspections);
    expect(inspections.length).toBeGreaterThan(BATCH);
    for (const { date, inspector_name } of inspections) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // A working day, in working hours, in Brussels.
      const when = wallClock(date);
      expect([1, 2, 3, 4, 5]).toContain(when.getUTCDay());
      expect(when.getUTCHours()).toBeGreaterThanOrEqual(8);
      expect(when.getUTCHours()).toBeLessThan(17);
      expect(visitTime(date)).toBeGreaterThan(clock.now);
      expect(visitTime(date)).toBeLessThan(START + 5 * 7 * 86_400_000);
      expect(inspector_name).toMatch(/\S/);
    }
    const names = new Set(inspections.map((i) => i.inspector_name ?? ''));
    expect(names.size).toBeGreaterThan(3);
    // Names a client must keep as they are: some are not ASCII.
    expect([...names].filter((n) => /[^\x20-\x7e]/.test(n)).length).toBeGreaterThanOrEqual(2);
  });

  it('cancels a few, each with a reason, and gives the others no reason', () => {
    const cancelled = planned.filter((o) => o.status === 'cancelled');
    expect(cancelled.length).toBeGreaterThanOrEqual(1);
    expect(cancelled.length).toBeLessThanOrEqual(BATCH / 4);
    for (const order of cancelled) expect(order.cancel_reason).toMatch(/\w{3}/);
    for (const order of planned.filter((o) => o.status !== 'cancelled'))
      expect(order.cancel_reason).toBeNull();
    // A cancelled order keeps the visits it had been given.
    for (const order of cancelled)
      for (const inspection of order.inspections) expect(inspection.date).not.toBeNull();
  });

  it('keeps the documented quirks in a planned order', async () => {
    const answer = await sandbox.api.getOrder(ids[0] ?? 0);
    expect((answer.json as { data: ReadOrder }).data.habbitable_space).toBe('140');
    expect(answer.text).toMatch(/"key_pickup_location":null/);
    expect(answer.text.endsWith('"contact_language":null}}')).toBe(true);
    // Inspector names escaped as PHP writes them (`\u00eb`), which a JSON parser reads back whole.
    const at = planned.findIndex((o) =>
      o.inspections.some((i) => /[^\x20-\x7e]/.test(i.inspector_name ?? '')),
    );
    const accented = await sandbox.api.getOrder(ids[at] ?? 0);
    expect(accented.text).toMatch(/"inspector_name":"[^"]*\\u[0-9a-f]{4}/);
  });

  it('keeps them "scheduled" until the last of their visits has passed on the clock, then "done"', async () => {
    clock.now = START + 2 * PLANNING_S * 1000;
    expect(planOf(await readAll(sandbox.api, ids))).toEqual(planOf(planned));
    // Each order, just before and just after its last visit: only then is it done.
    for (const [at, order] of planned.entries()) {
      const last = Math.max(...order.inspections.map((i) => visitTime(i.date)));
      const id = ids[at] ?? 0;
      clock.now = last - 1000;
      const before = (await readAll(sandbox.api, [id]))[0];
      expect(before?.status).toBe(order.status);
      clock.now = last + 1000;
      const after = (await readAll(sandbox.api, [id]))[0];
      expect(after?.status).toBe(order.status === 'scheduled' ? 'done' : 'cancelled');
    }
  });

  it('marks every scheduled order "done" once the clock is moved past the visits, and changes nothing else', async () => {
    clock.now = START + 2 * PLANNING_S * 1000;
    const moved = await sandbox.api.send('POST', '/__sandbox/clock', {
      body: '{"advanceDays": 30}',
      headers: { 'content-type': 'application/json' },
    });
    expect(moved.status, moved.text).toBe(200);
    const later = await readAll(sandbox.api, ids);
    const expected = planOf(planned).map((p) =>
      p.status === 'scheduled' ? { ...p, status: 'done' } : p,
    );
    expect(planOf(later)).toEqual(expected);
    expect(later.some((o) => o.status === 'done')).toBe(true);
  });

  it('lists the same plan in /__sandbox/orders', async () => {
    const listed = await sandbox.api.listOrders();
    const read = await readAll(sandbox.api, ids);
    expect(planOf(listed as unknown as ReadOrder[])).toEqual(planOf(read));
  });

  it("does not show another organisation's orders", async () => {
    const other = sandbox.api.withToken('token-beta');
    expect((await other.getOrder(ids[0] ?? 0)).status).toBe(404);
  });
});

describe("a visit's date", () => {
  it('is read as Brussels time: CET in winter, CEST in summer', () => {
    expect(visitTime('2026-12-01 10:00:00')).toBe(Date.UTC(2026, 11, 1, 9, 0, 0));
    expect(visitTime('2027-06-17 10:00:00')).toBe(Date.UTC(2027, 5, 17, 8, 0, 0));
  });

  it('is the wall-clock time in Brussels: in summer too, an order is done just after its last visit on the sandbox clock, not hours off', async () => {
    const summer = Date.UTC(2027, 5, 17, 7, 0, 0);
    const { sandbox, clock } = await clockedSandbox({ planning: PLANNING_S, faults: { seed: 5 } });
    try {
      clock.now = summer;
      const ids = await createBatch(sandbox.api);
      clock.now = summer + PLANNING_S * 1000;
      const planned = await readAll(sandbox.api, ids);
      const at = planned.findIndex((o) => o.status === 'scheduled');
      const last = Math.max(...(planned[at]?.inspections ?? []).map((i) => visitTime(i.date)));
      // The sandbox clock a second before the last visit, moved there by a day.
      clock.now = last - 1000 - DAY_MS;
      const moved = await sandbox.api.send('POST', '/__sandbox/clock', {
        body: '{"advanceDays": 1}',
        headers: { 'content-type': 'application/json' },
      });
      expect(moved.json).toMatchObject({ now: new Date(last - 1000).toISOString() });
      expect((await readAll(sandbox.api, [ids[at] ?? 0]))[0]?.status).toBe('scheduled');
      clock.now += 2000;
      expect((await readAll(sandbox.api, [ids[at] ?? 0]))[0]?.status).toBe('done');
    } finally {
      await sandbox.close();
    }
  });
});

describe('the seed of the planning', () => {
  const opened: TestSandbox[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  async function planWith(seed: number) {
    const { sandbox, clock } = await clockedSandbox({ planning: PLANNING_S, faults: { seed } });
    opened.push(sandbox);
    const ids = await createBatch(sandbox.api);
    clock.now = START + PLANNING_S * 1000;
    return planOf(await readAll(sandbox.api, ids));
  }

  it('gives the same plan for the same seed, and another for another seed', async () => {
    const first = await planWith(11);
    expect(await planWith(11)).toEqual(first);
    const other = await planWith(12);
    expect(other).not.toEqual(first);
    const dates = (plan: typeof first) => plan.flatMap((p) => p.visits.map(([date]) => date));
    expect(dates(other)).not.toEqual(dates(first));
  });
});

describe('planning', () => {
  it('is off by default: orders stay "to schedule" however long after', async () => {
    const { sandbox, clock } = await clockedSandbox({});
    try {
      const ids = await createBatch(sandbox.api);
      clock.now = START + 365 * 86_400_000;
      expectUnplanned(await readAll(sandbox.api, ids));
    } finally {
      await sandbox.close();
    }
  });

  it('goes by the stored creation time, so a restart plans the same', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sandbox-planning-'));
    try {
      const input = { dataDir, planning: PLANNING_S, faults: { seed: 3 } };
      const first = await clockedSandbox(input);
      const ids = await createBatch(first.sandbox.api);
      first.clock.now = START + PLANNING_S * 1000;
      const before = planOf(await readAll(first.sandbox.api, ids));
      await first.sandbox.close();

      const second = await clockedSandbox(input);
      try {
        second.clock.now = START + PLANNING_S * 1000;
        expect(planOf(await readAll(second.sandbox.api, ids))).toEqual(before);
        expect(before.every((p) => p.status !== 'to schedule')).toBe(true);
      } finally {
        await second.sandbox.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
