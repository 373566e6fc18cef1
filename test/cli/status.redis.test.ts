/**
 * `order-importer status` (docs/design.md §2 "Status of imported orders"), in process through its
 * IO, over a real Redis and the sandbox over HTTP (behind a proxy that can break one order's
 * answer): sheets imported with `import`, then read back into status.csv. The sandbox plans no
 * inspections yet: its orders are moved on by writing its SQLite file, as its planning would.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { runInProcess, importerEnv } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type OrderProxy, orderProxy } from '../helpers/order-proxy.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { type SheetRow, sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let proxy: OrderProxy;
let db: Database.Database;
let dataDir: string;
beforeAll(async () => {
  redis = await useTestRedis();
  const sandboxDir = await tempDir('status-sandbox-');
  sandbox = await testSandbox({
    dataDir: sandboxDir,
    tokens: [
      { token: 'sandbox-demo-token', org: 'demo' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  proxy = await orderProxy(sandbox.url);
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
  dataDir = await tempDir('status-data-');
});
afterAll(async () => {
  db.close();
  await proxy.close();
  await sandbox.close();
  await redis.cleanup();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return importerEnv({ redis, apiUrl: proxy.url, dataDir }, extra);
}

async function imported(
  rows: readonly SheetRow[],
  more: string[] = [],
  extra = {},
): Promise<Summary> {
  const dir = await tempDir('status-sheet-');
  const path = await writeCsvSheet(dir, 'orders.csv', rows);
  const given = env(extra);
  // A config file's connections say where orders go.
  if (more.includes('--config')) {
    delete given.API_BASE_URL;
    delete given.API_TOKEN;
  }
  const finished = await runInProcess(['import', '--json', ...more, path], given);
  expect(finished.code, finished.stderr).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Summary[];
  if (summary === undefined) throw new Error('no summary');
  return summary;
}

/** The orders a report names, by row. */
async function orderIds(summary: Summary): Promise<number[]> {
  const text = await readFile(join(summary.reportDir, 'report.csv'), 'utf8');
  const records: Array<Record<string, string>> = parse(text, {
    bom: true,
    delimiter: ';',
    columns: true,
  });
  return records.map((r) => Number(r.order_id));
}

async function statusCsv(
  summary: Summary,
): Promise<{ raw: string; lines: Array<Record<string, string>> }> {
  const raw = await readFile(join(summary.reportDir, 'status.csv'), 'utf8');
  const lines: Array<Record<string, string>> = parse(raw, {
    bom: true,
    delimiter: ';',
    columns: true,
  });
  return { raw, lines };
}

interface StatusJson {
  sheetId: string;
  orders: number;
  byStatus: Record<string, number>;
  changed: number;
  error?: string;
}

async function status(args: string[], extra: Record<string, string> = {}) {
  const finished = await runInProcess(['status', '--json', ...args], env(extra));
  const json = finished.code === 1 ? [] : (JSON.parse(finished.stdout) as StatusJson[]);
  return { ...finished, json };
}

describe('order-importer status', () => {
  it('writes status.csv (BOM, the report delimiter, one line per inspection, verbatim) and counts changes run after run', async () => {
    const summary = await imported([
      sheetRow(1, { order_products: 'EPC|ELEC-1.1', breaker_boxes: '1' }),
      sheetRow(2),
      sheetRow(3),
    ]);
    const [first, second, third] = await orderIds(summary);

    const run1 = await status([summary.reportDir]);
    expect(run1.code, run1.stderr).toBe(0);
    // First run: compared with a new order's state, nothing moved yet.
    expect(run1.json).toEqual([
      { sheetId: summary.sheetId, orders: 3, byStatus: { 'to schedule': 3 }, changed: 0 },
    ]);
    expect(run1.stderr).toMatch(/3 orders; 3 to schedule; 0 changed\./);
    const written = await statusCsv(summary);
    expect(
      written.raw.startsWith(
        '\uFEFFrow;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at;address;contact_name\r\n',
      ),
    ).toBe(true);
    expect(written.lines.map((l) => [l.row, l.reference, l.order_id, l.product_id])).toEqual([
      ['1', 'R-1', String(first), 'EPC'],
      ['1', 'R-1', String(first), 'ELEC-1.1'],
      ['2', 'R-2', String(second), 'EPC'],
      ['3', 'R-3', String(third), 'EPC'],
    ]);
    expect(written.lines[1]).toMatchObject({
      order_status: 'to schedule',
      product_name: 'Elektrische keuring woning bij verkoop (AREI)',
      inspection_date: '',
      inspector_name: '',
    });
    expect(written.lines[0]?.checked_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Planned: a status the API chose, a date, an inspector whose name Excel would run.
    db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(first);
    db.prepare(
      "UPDATE inspections SET date = '2026-12-03 09:00', inspector_name = '=HYPERLINK(\"x\")' WHERE order_id = ? AND product_id = 'EPC'",
    ).run(first);
    const run2 = await status([summary.sheetId]);
    expect(run2.code, run2.stderr).toBe(0);
    expect(run2.json[0]).toMatchObject({ byStatus: { planned: 1, 'to schedule': 2 }, changed: 1 });
    const planned = await statusCsv(summary);
    expect(planned.raw).toContain(`;"'=HYPERLINK(""x"")";`);
    expect(planned.lines[0]).toMatchObject({
      order_status: 'planned',
      inspection_date: '2026-12-03 09:00',
      inspector_name: `'=HYPERLINK("x")`,
    });

    // Nothing moved since: nothing changed. Then a cancellation with its reason.
    const run3 = await status([summary.sheetId]);
    expect(run3.json[0]).toMatchObject({ changed: 0 });
    db.prepare("UPDATE orders SET status = 'cancelled', cancel_reason = 'sold' WHERE id = ?").run(
      third,
    );
    const run4 = await status([summary.sheetId]);
    expect(run4.json[0]).toMatchObject({
      byStatus: { planned: 1, 'to schedule': 1, cancelled: 1 },
      changed: 1,
    });
    expect((await statusCsv(summary)).lines[3]).toMatchObject({
      order_status: 'cancelled',
      cancel_reason: 'sold',
    });
  });

  it('says `not found` of an order the API does not have', async () => {
    const summary = await imported([sheetRow(11), sheetRow(12)]);
    const report = join(summary.reportDir, 'report.csv');
    const [, second] = await orderIds(summary);
    await writeFile(report, (await readFile(report, 'utf8')).replace(`;${second};`, ';99999999;'));
    const run = await status([summary.reportDir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json[0]).toMatchObject({
      orders: 2,
      byStatus: { 'to schedule': 1, 'not found': 1 },
      changed: 1,
    });
    const { lines } = await statusCsv(summary);
    expect(lines[1]).toMatchObject({
      row: '2',
      order_id: '99999999',
      order_status: 'not found',
      product_id: '',
    });
  });

  it('stops on a token refused while reading, saying so in Dutch', async () => {
    const summary = await imported([sheetRow(61)]);
    const [first] = await orderIds(summary);
    proxy.faults.set(first ?? 0, { status: 401, body: '{"message":"Unauthenticated."}' });
    try {
      const run = await status([summary.sheetId], { LANGUAGE: 'nl' });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^order-importer: De API weigert het token \(GET \S+ answered 401: Unauthenticated\.\): controleer API_TOKEN \/ API_TOKEN_FILE, of het tokenbestand van de verbinding\.$/m,
      );
    } finally {
      proxy.faults.clear();
    }
  });

  it('takes a redirect to another host as that one order not readable now, and reads the rest', async () => {
    const summary = await imported([sheetRow(41), sheetRow(42)]);
    const [first, second] = await orderIds(summary);
    proxy.faults.set(first ?? 0, {
      status: 307,
      body: '',
      headers: { location: 'http://elsewhere.example/api/orders/1' },
    });
    try {
      const run = await status([summary.sheetId]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.json[0]).toMatchObject({ orders: 2, byStatus: { 'to schedule': 1 } });
      expect(run.stderr).toMatch(new RegExp(`row 1, order ${first}: .*redirect to another host`));
      const written = await statusCsv(summary);
      expect(written.lines.find((l) => l.order_id === String(second))).toMatchObject({
        order_status: 'to schedule',
      });
    } finally {
      proxy.faults.clear();
    }
  });

  it('takes an answer over 4 MiB as that one order not readable now, asked once, and reads the rest', async () => {
    const summary = await imported([sheetRow(51), sheetRow(52)]);
    const [first, second] = await orderIds(summary);
    const padding = ' '.repeat(5 * 1024 * 1024);
    proxy.faults.set(first ?? 0, {
      status: 200,
      body: `{"data":{"id":${first},"status":"planned","inspections":[]}${padding}}`,
    });
    try {
      const run = await status([summary.sheetId]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.json[0]).toMatchObject({ orders: 2, byStatus: { 'to schedule': 1 } });
      expect(run.stderr).toMatch(new RegExp(`row 1, order ${first}: .*body over 4 MiB`));
      expect(proxy.gets.filter((id) => id === first)).toHaveLength(1);
      const written = await statusCsv(summary);
      expect(written.lines.find((l) => l.order_id === String(second))).toMatchObject({
        order_status: 'to schedule',
      });
    } finally {
      proxy.faults.clear();
    }
  });

  it('keeps the previous lines of an order it cannot read now, says so and exits 2', async () => {
    const summary = await imported([sheetRow(21), sheetRow(22), sheetRow(23), sheetRow(24)]);
    const [first, second, third, fourth] = await orderIds(summary);
    expect((await status([summary.sheetId])).code).toBe(0);
    const before = await statusCsv(summary);
    db.prepare("UPDATE orders SET status = 'planned' WHERE id IN (?, ?, ?, ?)").run(
      first,
      second,
      third,
      fourth,
    );
    proxy.faults.set(first ?? 0, { status: 503, body: '{"message":"Service Unavailable"}' });
    proxy.faults.set(second ?? 0, {
      status: 200,
      body: `{"data":{"id":${second},"status":{"x":1}}}`,
    });
    proxy.faults.set(fourth ?? 0, {
      status: 200,
      body: `{"data":{"id":${third},"status":"done","inspections":[]}}`,
    });
    try {
      const run = await status([summary.sheetId]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.json[0]).toMatchObject({
        orders: 4,
        byStatus: { 'to schedule': 3, planned: 1 },
        changed: 1,
      });
      expect(run.stderr).toMatch(/3 not readable now \(their previous lines kept\)/);
      expect(run.stderr).toMatch(new RegExp(`row 1, order ${first}: GET .* answered 503`));
      expect(run.stderr).toMatch(new RegExp(`row 2, order ${second}: its answer is not an order`));
      expect(run.stderr).toMatch(
        new RegExp(`row 4, order ${fourth}: its answer is of another order \\(${third}\\)`),
      );
      const after = await statusCsv(summary);
      expect(after.lines.slice(0, 2)).toEqual(before.lines.slice(0, 2));
      expect(after.lines[2]).toMatchObject({ order_status: 'planned' });
      expect(after.lines[3]).toEqual(before.lines[3]);
      // A 503 is asked again a few times; an answer that is no order is not.
      expect(proxy.gets.filter((id) => id === first).length).toBeGreaterThan(1);
    } finally {
      proxy.faults.clear();
    }
    const again = await status([summary.sheetId]);
    expect(again.code).toBe(0);
    expect(again.json[0]).toMatchObject({ byStatus: { planned: 4 }, changed: 3 });
  });

  it('reads every recent sheet by default, leaving those whose orders are all final (STATUS_FINAL)', async () => {
    const own = await tempDir('status-default-');
    const extra = { DATA_DIR: own };
    const done = await imported([sheetRow(31), sheetRow(32)], [], extra);
    const open = await imported([sheetRow(33)], [], extra);
    const run1 = await status([], extra);
    expect(run1.code, run1.stderr).toBe(0);
    expect(run1.json.map((s) => s.sheetId).sort()).toEqual([done.sheetId, open.sheetId].sort());
    const finals = await orderIds(done);
    db.prepare("UPDATE orders SET status = 'done' WHERE id IN (?, ?)").run(...finals);
    const run2 = await status([], extra);
    expect(run2.json.find((s) => s.sheetId === done.sheetId)).toMatchObject({
      changed: 2,
      byStatus: { done: 2 },
    });
    const gets = proxy.gets.length;
    const run3 = await status([], { ...extra, STATUS_FINAL: 'done, cancelled' });
    expect(run3.code).toBe(0);
    expect(run3.stderr).toMatch(
      new RegExp(`${done.sheetId} .*2 orders, all final \\(2 done\\): not read again\\.`),
    );
    // Only the open sheet's one order (and the start's check of the API) was asked for.
    expect(proxy.gets.slice(gets).filter((id) => finals.includes(id))).toEqual([]);
    // Named, a final sheet is read all the same.
    const named = await status([done.sheetId], extra);
    expect(named.stderr).toMatch(/2 orders; 2 done; 0 changed\./);
    // Reported longer ago than STATUS_DAYS: not read.
    const summaryPath = join(open.reportDir, 'summary.json');
    const old = {
      ...(JSON.parse(await readFile(summaryPath, 'utf8')) as Summary),
      finishedAt: '2020-01-01T00:00:00.000Z',
    };
    await writeFile(summaryPath, JSON.stringify(old));
    const run4 = await status([], { ...extra, STATUS_DAYS: '30' });
    expect(run4.json.map((s) => s.sheetId)).toEqual([done.sheetId]);
  });

  it('exits 1 for an unknown sheet id, a folder that is no report, a refused token, a Redis that does not answer', async () => {
    const unknown = await status(['no-such-sheet']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No report of sheet no-such-sheet in /);
    const folder = await tempDir('not-a-report-');
    await put(folder, 'summary.json', '{}');
    const notReport = await status([folder]);
    expect(notReport.code).toBe(1);
    expect(notReport.stderr).toMatch(
      /is not a report folder: it has no summary\.json and report\.csv/,
    );
    const summary = await imported([sheetRow(41)]);
    const token = await status([summary.sheetId], { API_TOKEN: 'wrong-token' });
    expect(token.code).toBe(1);
    expect(token.stderr).toMatch(/refused the token/);
    expect(token.stderr).not.toContain('wrong-token');
    const away = await status([summary.sheetId], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(away.code).toBe(1);
  });

  it('reads the embedded sandbox when no API is set: the orders imported into it earlier', async () => {
    const dir = await tempDir('status-embedded-');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(61), sheetRow(62)]);
    const {
      API_BASE_URL: _url,
      API_TOKEN: _token,
      ...embedded
    } = env({ DATA_DIR: join(dir, 'data') });
    const first = await runInProcess(['import', '--json', path], embedded);
    expect(first.code, first.stderr).toBe(0);
    const [summary] = JSON.parse(first.stdout) as Summary[];
    const run = await runInProcess(['status', '--json'], embedded);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/EMBEDDED SANDBOX/);
    expect(JSON.parse(run.stdout)).toEqual([
      { sheetId: summary?.sheetId, orders: 2, byStatus: { 'to schedule': 2 }, changed: 0 },
    ]);
  });

  it("never reads a sheet with another connection's token: not configured, it is not read (exit 2)", async () => {
    const dir = await tempDir('status-offices-');
    await put(dir, 'gent.token', 'sandbox-demo-token\n');
    await put(dir, 'brugge.token', 'token-brugge\n');
    const office = (names: string[]) =>
      put(
        dir,
        `${names.join('-')}.json`,
        JSON.stringify({
          connections: names.map((name) => ({
            name,
            apiBaseUrl: proxy.url,
            tokenFile: join(dir, `${name}.token`),
          })),
        }),
      );
    const both = await office(['gent', 'brugge']);
    const gentOnly = await office(['gent']);
    const { API_BASE_URL: _url, API_TOKEN: _token, ...noApi } = env();
    const summary = await imported(
      [sheetRow(51)],
      ['--config', both, '--connection', 'brugge'],
      {},
    );
    const [order] = await orderIds(summary);
    const gets = proxy.gets.length;
    const refused = await runInProcess(
      ['status', '--json', '--config', gentOnly, summary.sheetId],
      noApi,
    );
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /imported through connection "brugge" \([0-9a-f]{16}\), which is not configured here: not read/,
    );
    expect(proxy.gets.slice(gets)).not.toContain(order);
    await expect(readFile(join(summary.reportDir, 'status.csv'))).rejects.toThrow(/ENOENT/);
    const read = await runInProcess(['status', '--json', '--config', both, summary.sheetId], noApi);
    expect(read.code, read.stderr).toBe(0);
    expect((await statusCsv(summary)).lines[0]).toMatchObject({
      order_id: String(order),
      order_status: 'to schedule',
    });
  });
});
