import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { orderImporter } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const SECRET = 'e2e-secret';
let redis: TestRedis;
let sandbox: TestSandbox;
let hook: WebhookReceiver;
let dataDir: string;

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  hook = await webhookReceiver();
  dataDir = await tempDir('notify-kill-');
});
afterAll(async () => {
  await hook.close();
  await sandbox.close();
  await redis.cleanup();
});

function env(): NodeJS.ProcessEnv {
  return {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
    NOTIFY_WEBHOOK_URL: hook.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
  };
}

describe('an importer killed between writing the report and delivering sheet.done', () => {
  it('has it delivered by the next worker: the same event, signed', async () => {
    // The first delivery is held open: the report is written, the event is not delivered yet.
    hook.answer = (_request, n) => (n === 0 ? 'hold' : 204);
    const dir = await tempDir('notify-kill-sheet-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1), sheetRow(2)]);
    const importing = orderImporter(['import', sheet], env());
    const [held] = await hook.waitFor(1);
    importing.signal('SIGKILL');
    expect((await importing.finished).signal).toBe('SIGKILL');
    const body = JSON.parse(held?.body ?? '{}') as {
      event: string;
      id: string;
      summary: { reportDir: string; created: number };
    };
    expect(body).toMatchObject({ event: 'sheet.done', summary: { created: 2 } });
    // The report was written before the event was sent.
    await readFile(join(body.summary.reportDir, 'report.csv'));

    const worker = orderImporter(['worker'], env());
    try {
      const [, delivered] = await hook.waitFor(2, () => true, 60_000);
      expect(delivered?.headers['x-order-importer-event']).toBe(body.id);
      expect(delivered?.body).toBe(held?.body);
      const signature = createHmac('sha256', SECRET)
        .update(delivered?.body ?? '')
        .digest('hex');
      expect(delivered?.headers['x-order-importer-signature']).toBe(`sha256=${signature}`);
      expect(delivered?.body).not.toContain('sandbox-demo-token');
    } finally {
      worker.signal('SIGTERM');
      await worker.finished;
    }
  }, 120_000);
});
