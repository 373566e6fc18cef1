/**
 * Notifications set in the config file only (docs/design.md §2 "Notifications"): `status` run by
 * hand, in process through its IO, tells the changes it finds to the config file's webhook and
 * delivers them itself, with no `watch` or `worker` running; and each office of the config file's
 * `connections` with a `notify` of its own hears its own events, and no other office's. Over a
 * real Redis, the sandbox over HTTP and real webhook receivers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { importerEnv, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type Received, type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { type SheetRow, sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let db: Database.Database;
let dataDir: string;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  redis = await useTestRedis();
  const sandboxDir = await tempDir('status-notify-sandbox-');
  sandbox = await testSandbox({
    dataDir: sandboxDir,
    tokens: [
      { token: 'sandbox-demo-token', org: 'demo' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
  dataDir = await tempDir('status-notify-data-');
});
afterAll(async () => {
  db.close();
  await Promise.all(receivers.map((r) => r.close()));
  await sandbox.close();
  await redis.cleanup();
});

async function receiver(): Promise<WebhookReceiver> {
  const made = await webhookReceiver();
  receivers.push(made);
  return made;
}

/** The environment without any notification, and without an API when the config has offices. */
function env(offices: boolean): Record<string, string> {
  const given = importerEnv({ redis, apiUrl: sandbox.url, dataDir });
  if (offices) {
    delete given.API_BASE_URL;
    delete given.API_TOKEN;
  }
  return given;
}

async function imported(rows: readonly SheetRow[], more: string[] = []): Promise<Summary> {
  const dir = await tempDir('status-notify-sheet-');
  const path = await writeCsvSheet(dir, 'orders.csv', rows);
  const finished = await runInProcess(
    ['import', '--json', ...more, path],
    env(more.includes('--config')),
  );
  expect(finished.code, finished.stderr).toBe(0);
  const [summary] = JSON.parse(finished.stdout) as Summary[];
  if (summary === undefined) throw new Error('no summary');
  return summary;
}

async function orderIds(summary: Summary): Promise<number[]> {
  const text = await readFile(join(summary.reportDir, 'report.csv'), 'utf8');
  const records: Array<Record<string, string>> = parse(text, {
    bom: true,
    delimiter: ';',
    columns: true,
  });
  return records.map((r) => Number(r.order_id));
}

function planned(ids: readonly number[]): void {
  for (const id of ids) db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(id);
}

interface ChangedBody {
  event: string;
  sheetId: string;
  connection: { name: string };
  orders: Array<{ order_id: number; address: string }>;
}

function changedOf(received: readonly Received[]): ChangedBody[] {
  return received
    .map((r) => JSON.parse(r.body) as ChangedBody)
    .filter((body) => body.event === 'orders.changed');
}

describe('notifications in the config file', () => {
  it('are told by a `status` run by hand, which delivers them itself', async () => {
    const hook = await receiver();
    const summary = await imported([sheetRow(1), sheetRow(2)]);
    const [first] = await orderIds(summary);
    planned([first ?? 0]);
    const dir = await tempDir('status-notify-config-');
    const config = await put(
      dir,
      'config.json',
      JSON.stringify({ notifyWebhookUrl: hook.url, notifyWebhookSecret: 'k1' }),
    );
    const run = await runInProcess(
      ['status', '--json', '--config', config, summary.sheetId],
      env(false),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/no one was told/);
    // Delivered by the time the run ended: no `watch` or `worker` runs beside it.
    const told = changedOf(hook.received);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      sheetId: summary.sheetId,
      orders: [{ order_id: first, address: 'Kerkstraat 1, 9000 Gent' }],
    });
    expect(hook.received[0]?.headers['x-order-importer-signature']).toMatch(/^sha256=/);
  });

  it("are each office's own: two offices with their own webhooks each hear only their own events", async () => {
    const [everyone, gentHook, bruggeHook] = [await receiver(), await receiver(), await receiver()];
    const dir = await tempDir('status-notify-offices-');
    await put(dir, 'gent.token', 'sandbox-demo-token\n');
    await put(dir, 'brugge.token', 'token-brugge\n');
    const office = (name: string, hook: WebhookReceiver) => ({
      name,
      apiBaseUrl: sandbox.url,
      tokenFile: join(dir, `${name}.token`),
      notify: { webhook: { url: hook.url } },
    });
    const config = await put(
      dir,
      'config.json',
      JSON.stringify({
        notifyWebhookUrl: everyone.url,
        connections: [office('gent', gentHook), office('brugge', bruggeHook)],
      }),
    );
    const gent = await imported([sheetRow(11)], ['--config', config, '--connection', 'gent']);
    const brugge = await imported([sheetRow(12)], ['--config', config, '--connection', 'brugge']);
    planned([...(await orderIds(gent)), ...(await orderIds(brugge))]);
    const run = await runInProcess(
      ['status', '--json', '--config', config, gent.sheetId, brugge.sheetId],
      env(true),
    );
    expect(run.code, run.stderr).toBe(0);
    const heard = (hook: WebhookReceiver) =>
      hook.received.map((r) => {
        const body = JSON.parse(r.body) as Partial<ChangedBody> & {
          event: string;
          connection: { name: string };
          summary?: { sheetId: string };
        };
        return `${body.event} ${body.sheetId ?? body.summary?.sheetId} ${body.connection.name}`;
      });
    expect(heard(gentHook).sort()).toEqual([
      `orders.changed ${gent.sheetId} gent`,
      `sheet.done ${gent.sheetId} gent`,
    ]);
    expect(heard(bruggeHook).sort()).toEqual([
      `orders.changed ${brugge.sheetId} brugge`,
      `sheet.done ${brugge.sheetId} brugge`,
    ]);
    expect(everyone.received).toEqual([]);
  });
});
