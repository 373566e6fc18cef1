/**
 * `order-importer status` against the sandbox's own planners (`--planning`), over a real Redis
 * and the sandbox over HTTP, its clock moved by the test: what the planners decide (dates,
 * inspectors with accents, a cancellation with its reason, orders done once the sandbox's clock
 * is moved past their visits) and a deleted order (404) come out in status.csv, and `changed`
 * counts right run after run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { runInProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const PLANNING_S = 60;
const ROWS = 24;

let redis: TestRedis;
let sandbox: TestSandbox;
let dataDir: string;
const clock = { now: Math.floor(Date.now() / 1000) * 1000 };
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox(
    { planning: PLANNING_S, faults: { seed: 7 } },
    { now: () => clock.now },
  );
  dataDir = await tempDir('status-planning-data-');
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

const env = {
  get REDIS_URL() {
    return redis.url;
  },
  get QUEUE_PREFIX() {
    return `{${redis.prefix}}`;
  },
  get API_BASE_URL() {
    return sandbox.url;
  },
  API_TOKEN: 'sandbox-demo-token',
  get DATA_DIR() {
    return dataDir;
  },
  RETRY_DELAY_MS: '50',
};

interface StatusJson {
  sheetId: string;
  orders: number;
  byStatus: Record<string, number>;
  changed: number;
}

async function status(sheetId: string): Promise<StatusJson & { stderr: string }> {
  const run = await runInProcess(['status', '--json', sheetId], { ...env });
  expect(run.code, run.stderr).toBe(0);
  const [one] = JSON.parse(run.stdout) as StatusJson[];
  if (one === undefined) throw new Error(`no status in ${run.stdout}`);
  return { ...one, stderr: run.stderr };
}

/** What `status` says when it found changes it has no way to tell anyone of. */
const NOBODY_TOLD = /no one was told: no notification is set/;

async function lines(summary: Summary): Promise<Array<Record<string, string>>> {
  const text = await readFile(join(summary.reportDir, 'status.csv'), 'utf8');
  const parsed: Array<Record<string, string>> = parse(text, {
    bom: true,
    columns: true,
    delimiter: ';',
  });
  return parsed;
}

describe('status: the sandbox planners seen through status.csv', () => {
  it('shows dates, accented inspectors, a cancellation and a deleted order; counts what changed', async () => {
    const dir = await tempDir('status-planning-sheet-');
    const rows = Array.from({ length: ROWS }, (_, i) => sheetRow(i + 1));
    const path = await writeCsvSheet(dir, 'orders.csv', rows);
    const imported = await runInProcess(['import', '--json', path], { ...env });
    expect(imported.code, imported.stderr).toBe(0);
    const [summary] = JSON.parse(imported.stdout) as Summary[];
    if (summary === undefined) throw new Error('no summary');

    // Before the planners' delay: every order as it was made.
    const first = await status(summary.sheetId);
    expect(first).toMatchObject({ orders: ROWS, byStatus: { 'to schedule': ROWS }, changed: 0 });

    clock.now += (PLANNING_S + 1) * 1000;
    const second = await status(summary.sheetId);
    const planned = await lines(summary);
    const cancelled = planned.filter((l) => l.order_status === 'cancelled');
    const scheduled = planned.filter((l) => l.order_status === 'scheduled');
    expect(second.changed).toBe(ROWS);
    // No NOTIFY_* here: the changes are in status.csv only, and the run says so.
    expect(first.stderr).not.toMatch(NOBODY_TOLD);
    expect(second.stderr).toMatch(NOBODY_TOLD);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(scheduled.length).toBe(ROWS - cancelled.length);
    for (const line of cancelled) expect(line.cancel_reason).not.toBe('');
    for (const line of scheduled) {
      expect(line.cancel_reason).toBe('');
      expect(line.inspection_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(line.inspector_name).not.toBe('');
    }
    // Names as the API writes them, verbatim: some with letters beyond ASCII.
    expect(planned.some((l) => /[^\x20-\x7e]/.test(l.inspector_name ?? ''))).toBe(true);

    // Nothing moved: nothing changed. Then one order is deleted.
    expect((await status(summary.sheetId)).changed).toBe(0);
    const gone = scheduled[0]?.order_id;
    const deleted = await fetch(`${sandbox.url}/__sandbox/orders/${gone}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer sandbox-demo-token' },
    });
    expect(deleted.status).toBe(204);
    const third = await status(summary.sheetId);
    expect(third.changed).toBe(1);
    expect(third.byStatus['not found']).toBe(1);
    const after = await lines(summary);
    expect(after.find((l) => l.order_id === gone)).toMatchObject({
      order_status: 'not found',
      inspection_date: '',
    });

    // Twice the delay: the visits are still weeks away, so nothing is done yet.
    clock.now += PLANNING_S * 1000;
    expect((await status(summary.sheetId)).changed).toBe(0);

    // Past the last visit: the scheduled orders are done; the cancelled and the deleted stay.
    const moved = await fetch(`${sandbox.url}/__sandbox/clock`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-demo-token', 'content-type': 'application/json' },
      body: JSON.stringify({ advanceDays: 30 }),
    });
    expect(moved.status).toBe(200);
    const fourth = await status(summary.sheetId);
    expect(fourth.changed).toBe(scheduled.length - 1);
    expect(fourth.byStatus).toEqual({
      done: scheduled.length - 1,
      cancelled: cancelled.length,
      'not found': 1,
    });
  }, 120_000);
});
