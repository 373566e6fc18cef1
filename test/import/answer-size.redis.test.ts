import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { put } from '../helpers/files.js';
import { type HugeAnswerProxy, type HugeChoice, hugeAnswerProxy } from '../helpers/huge-answers.js';
import { testContextParts, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { ApiClient } from '../../src/api/client.js';
import { openContext } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { startWorkers } from '../../src/workers/start.js';
import { closeContext } from '../../src/workers/stop.js';

const MB = 1024 * 1024;
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

interface Imported {
  progress: SheetProgress;
  proxy: HugeAnswerProxy;
  sandbox: TestSandbox;
  report: Array<Record<string, string>>;
}

/** Imports one row with an attachment through a proxy that answers what `choose` picks hugely. */
async function importThrough(choose: HugeChoice): Promise<Imported> {
  const parts = await testContextParts('huge-answers-');
  closing.push(parts.close);
  const proxy = await hugeAnswerProxy(parts.sandbox.url, choose);
  closing.push(() => proxy.close());
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  closing.push(() => dispatcher.close());
  const token = parts.sandbox.tokens[0]?.token ?? '';
  const api = new ApiClient({ baseUrl: proxy.url, token, timeoutMs: 20_000, dispatcher });
  const ctx = await openContext({ ...parts.config, api });
  closing.push(() => closeContext(ctx, { graceMs: 2000 }));
  await startWorkers(ctx);
  await put(parts.dir, 'docs/plan.pdf', 'a plan');
  const sheet = await writeCsvSheet(parts.dir, 'orders.csv', [
    sheetRow(1, { files: 'docs/plan.pdf' }),
  ]);
  const { sheetId } = await submitSheet(ctx, sheet);
  const progress = await waitForReport(ctx, sheetId, 90_000);
  const csv = await readFile(join(progress.reportDir ?? '', 'report.csv'), 'utf8');
  const report = parse<Record<string, string>>(csv, { bom: true, columns: true, delimiter: ';' });
  return { progress, proxy, sandbox: parts.sandbox, report };
}

/** What the proxy wrote of its huge answers: each far below their 64 MB, none to its end. */
function expectCut(proxy: HugeAnswerProxy, answers: number): void {
  expect(proxy.written).toHaveLength(answers);
  for (const written of proxy.written) expect(written).toBeLessThan(24 * MB);
  expect(proxy.finished).toBe(0);
}

const created = '{"id":1,"inspections":[{"id":1,"product_id":"EPC"}]';

describe('an answer over the size read of an answer', () => {
  it('to a create (201) leaves the row needs-review, the create sent once, the answer cut', async () => {
    const { progress, proxy, sandbox, report } = await importThrough((method, path) =>
      method === 'POST' && path === '/api/orders/'
        ? { status: 201, head: created, forwarded: true }
        : undefined,
    );
    expect(progress.counts).toMatchObject({ 'needs-review': 1, created: 0 });
    expect(report[0]?.error).toMatch(/over 4 MiB/);
    expect(await sandbox.api.listOrders()).toHaveLength(1);
    expectCut(proxy, 1);
  });

  it('to an upload (201) is retried like other unclear uploads, and the row is created', async () => {
    const { progress, proxy, sandbox } = await importThrough((method, path, n) =>
      method === 'POST' && path === '/api/files/' && n === 1
        ? { status: 201, head: '{"id":1', forwarded: true }
        : undefined,
    );
    expect(progress.counts).toMatchObject({ created: 1 });
    const [order] = await sandbox.api.listOrders();
    // The first upload may have attached the file: a second copy is the lesser harm (§3).
    expect(order?.files.length).toBe(2);
    expectCut(proxy, 1);
  });

  it('as an error (413) is that error, its body cut: the row failed with what it said', async () => {
    const { progress, proxy, sandbox, report } = await importThrough((method, path) =>
      method === 'POST' && path === '/api/orders/'
        ? {
            status: 413,
            head: '<html><head><title>413 Request Entity Too Large</title></head><body>',
            forwarded: false,
          }
        : undefined,
    );
    expect(progress.counts).toMatchObject({ failed: 1 });
    expect(report[0]?.error).toMatch(/413 Request Entity Too Large/);
    expect(await sandbox.api.listOrders()).toHaveLength(0);
    expectCut(proxy, 1);
  });
});
