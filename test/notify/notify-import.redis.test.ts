import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runInProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/receivers.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let hook: WebhookReceiver;

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  hook = await webhookReceiver();
});
afterAll(async () => {
  await hook.close();
  await sandbox.close();
  await redis.cleanup();
});

describe('import with a webhook', () => {
  it('has told every sheet by the time it exits', async () => {
    const dir = await tempDir('notify-import-');
    const a = await writeCsvSheet(dir, 'a.csv', [sheetRow(1)]);
    const b = await writeCsvSheet(dir, 'b.csv', [sheetRow(2), sheetRow(3, { city: '' })]);
    // Slow at first: the import has to wait for the retry.
    hook.answer = (request, n) => (request.body.includes('b.csv') && n === 0 ? 503 : 204);
    const finished = await runInProcess(['import', '--json', a, b], {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `{${redis.prefix}}`,
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: await tempDir('notify-import-data-'),
      RETRY_DELAY_MS: '50',
      NOTIFY_WEBHOOK_URL: hook.url,
    });
    expect(finished.code, finished.stderr).toBe(2);
    const sheetIds = (JSON.parse(finished.stdout) as Array<{ sheetId: string }>).map(
      (s) => s.sheetId,
    );
    const delivered = hook.received
      .filter((r) => r.body.includes('"event":"sheet.done"'))
      .map((r) => (JSON.parse(r.body) as { summary: { sheetId: string } }).summary.sheetId);
    // b's first try was answered 503: it is there twice, a once.
    expect(delivered.sort()).toEqual([...sheetIds, sheetIds[1]].sort());
    expect(finished.stderr).not.toMatch(/notification\(s\) not delivered yet/);
  });
});
