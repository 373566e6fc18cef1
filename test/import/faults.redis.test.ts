import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { sandboxRequests } from '../helpers/api.js';
import { put, tempDir } from '../helpers/files.js';
import {
  type TestPipeline,
  type TestPipelineOptions,
  testPipeline,
  waitForReport,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { ApiClient } from '../../src/api/client.js';
import { hashFile } from '../../src/sheets/scan.js';
import { openContext } from '../../src/context.js';
import { closeContext } from '../../src/workers/stop.js';
import { newSheetId, submitSheet } from '../../src/intake/submit.js';
import { importStopped, resumeImport, stopSaid } from '../../src/rows/stop-import.js';
import { wordsFor } from '../../src/language/words.js';
import { sheetProgress } from '../../src/store/progress.js';
import { startWorkers } from '../../src/workers/start.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});
async function pipelineWith(options: TestPipelineOptions): Promise<TestPipeline> {
  const t = await testPipeline(options);
  open.push(t);
  return t;
}

/** report.csv's rows: order id and error. */
function reportRows(csv: string): Array<{ orderId: string; error: string }> {
  const records = parse<Record<string, string>>(csv, { bom: true, columns: true, delimiter: ';' });
  return records.map((r) => ({ orderId: r.order_id ?? '', error: r.error ?? '' }));
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => sheetRow(i + 1));

describe('ambiguous answers to a create', () => {
  it.each([
    ['a 500 after the order is stored', { p500After: 1 }],
    ['a reset after the order is stored', { pResetAfter: 1 }],
  ])('%s make the row needs-review, with one order at most, never two', async (_case, faults) => {
    const t = await pipelineWith({ sandbox: { faults } });
    const dir = await tempDir('ambiguous-');
    const progress = await t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows(3)));
    expect(progress.counts).toMatchObject({ 'needs-review': 3, created: 0 });
    const orders = await t.sandbox.api.listOrders();
    const perContact = new Map<string, number>();
    for (const o of orders)
      perContact.set(o.contact_name, (perContact.get(o.contact_name) ?? 0) + 1);
    expect([...perContact.values()].every((n) => n === 1)).toBe(true);
    // The create was sent once per row: no blind re-post.
    const creates = (await sandboxRequests(t.sandbox.api)).filter(
      (r) => r.method === 'POST' && r.path === '/api/orders/',
    );
    expect(creates).toHaveLength(3);

    const review = (
      await readFile(join(progress.reportDir ?? '', 'needs-review.csv'), 'utf8')
    ).replace(/^\uFEFF/, '');
    const [header, ...lines] = review.trim().split('\r\n');
    expect(header?.endsWith(';sent_at;answer;what_to_check')).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/It may or may not exist/);
  });
});

describe('a rate limit', () => {
  it('ends with every row created, and nothing sent before a Retry-After has passed', async () => {
    const t = await pipelineWith({ sandbox: { rateLimit: 4, rateWindowMs: 2000 } });
    const dir = await tempDir('storm-');
    const progress = await t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows(14)), 60_000);
    expect(progress.counts.created).toBe(14);
    expect(await t.sandbox.api.listOrders()).toHaveLength(14);

    const requests = await sandboxRequests(t.sandbox.api);
    const refusals = requests.filter((r) => r.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    // Requests already on their way when a 429 was answered may still arrive; none may start
    // later while its Retry-After (here up to 2 s) runs.
    const inFlight = 150;
    for (const refusal of refusals) {
      const early = requests.filter((r) => r.at > refusal.at + inFlight && r.at < refusal.at + 900);
      expect(early, `requests right after the 429 at ${refusal.at}`).toEqual([]);
    }
    expect(refusals.length).toBeLessThan(14);
  });
});

describe('a process stopped between claiming a sheet and recording it', () => {
  it('leaves no ghost: the same intake resumed records and imports it, and so does a new drop', async () => {
    const t = await pipelineWith({});
    const dir = await tempDir('ghost-');
    const claimOf = async (path: string) => `${t.config.connection.id}|${await hashFile(path)}`;

    // Resumed by its own intake (same sheet id), as `watch` does after a restart.
    const resumed = await writeCsvSheet(dir, 'resumed.csv', rows(2));
    const ghostId = newSheetId(Date.now());
    expect(await t.ctx.store.claimSha(await claimOf(resumed), ghostId)).toBe(true);
    expect(await submitSheet(t.ctx, resumed, { sheetId: ghostId })).toEqual({
      sheetId: ghostId,
      resumed: true,
    });
    expect((await waitForReport(t.ctx, ghostId)).counts).toMatchObject({ created: 2 });

    // Dropped again by the user, under a new id: it takes the content over.
    const dropped = await writeCsvSheet(dir, 'dropped.csv', [sheetRow(7), sheetRow(8)]);
    expect(await t.ctx.store.claimSha(await claimOf(dropped), 'gone-before-recording')).toBe(true);
    const again = await submitSheet(t.ctx, dropped, { sheetId: newSheetId(Date.now() + 1000) });
    expect((await waitForReport(t.ctx, again.sheetId)).counts).toMatchObject({ created: 2 });
    expect(await t.sandbox.api.listOrders()).toHaveLength(4);
  });
});

describe('the same sheet imported twice', () => {
  it('gives a second report whose rows are all duplicate, naming the first import', async () => {
    const t = await pipelineWith({});
    const dir = await tempDir('twice-');
    const path = await writeCsvSheet(dir, 'orders.csv', [...rows(3), sheetRow(4, { city: '' })]);
    const first = await t.importSheet(path);
    const second = await t.importSheet(path);
    expect(second.sheetId).not.toBe(first.sheetId);
    expect(second.counts).toMatchObject({ duplicate: 4, created: 0 });
    const summary = JSON.parse(
      await readFile(join(second.reportDir ?? '', 'summary.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(summary).toMatchObject({ total: 4, duplicate: 4, duplicateOf: first.sheetId });
    expect(await t.sandbox.api.listOrders()).toHaveLength(3);

    const earlier = reportRows(await readFile(join(first.reportDir ?? '', 'report.csv'), 'utf8'));
    const again = reportRows(await readFile(join(second.reportDir ?? '', 'report.csv'), 'utf8'));
    expect(again.map((r) => r.orderId)).toEqual(earlier.map((r) => r.orderId));
    expect(again.slice(0, 3).map((r) => r.error)).toEqual(
      earlier
        .slice(0, 3)
        .map(
          (r) =>
            `this sheet's content was imported before (sheet ${first.sheetId}); order ${r.orderId} was made for this row then.`,
        ),
    );
    expect(again[3]?.error).toMatch(/no order was made for this row then \(it was invalid\)/);
  });

  it('reports a copy taken while the first is still importing, once that one is done', async () => {
    // Slow answers keep the first import running while its twin is taken, as two copies of one
    // file dropped into the hot folder together are.
    const t = await pipelineWith({ sandbox: { faults: { latencyMs: 150 } } });
    const dir = await tempDir('twins-');
    const first = await writeCsvSheet(dir, 'twin-a.csv', rows(6));
    const twin = await put(dir, 'twin-b.csv', await readFile(first));
    const a = await submitSheet(t.ctx, first, { sheetId: newSheetId(Date.now()) });
    const b = await submitSheet(t.ctx, twin, { sheetId: newSheetId(Date.now() + 1000) });
    expect((await sheetProgress(t.ctx.store, a.sheetId))?.state).not.toBe('done');
    expect(b.sheetId).not.toBe(a.sheetId);
    const [doneA, doneB] = await Promise.all([
      waitForReport(t.ctx, a.sheetId),
      waitForReport(t.ctx, b.sheetId),
    ]);
    expect(doneA.counts).toMatchObject({ created: 6 });
    expect(doneB.counts).toMatchObject({ duplicate: 6, created: 0 });
    expect(await t.sandbox.api.listOrders()).toHaveLength(6);
    const earlier = reportRows(await readFile(join(doneA.reportDir ?? '', 'report.csv'), 'utf8'));
    const again = reportRows(await readFile(join(doneB.reportDir ?? '', 'report.csv'), 'utf8'));
    expect(again.map((r) => r.orderId)).toEqual(earlier.map((r) => r.orderId));
  });

  it("gives the earlier order ids even when the rows' documents are gone since", async () => {
    const t = await pipelineWith({});
    const dir = await tempDir('twice-docs-');
    await put(dir, 'docs/plan.pdf', '%PDF plan');
    const path = await writeCsvSheet(dir, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { files: 'docs/plan.pdf' }),
    ]);
    const first = await t.importSheet(path);
    expect(first.counts.created).toBe(2);
    // As in the hot folder, where the documents left with the first import.
    await rm(join(dir, 'docs'), { recursive: true });
    const second = await t.importSheet(path);
    expect(second.counts).toMatchObject({ duplicate: 2 });
    const orderIds = (await t.sandbox.api.listOrders()).map((o) => String(o.id)).sort();
    const again = reportRows(await readFile(join(second.reportDir ?? '', 'report.csv'), 'utf8'));
    expect(again.map((r) => r.orderId).sort()).toEqual(orderIds);
  });

  it('imports the same bytes anew with --allow-duplicates', async () => {
    const t = await pipelineWith({});
    const dir = await tempDir('twice-allowed-');
    const path = await writeCsvSheet(dir, 'orders.csv', rows(2));
    const first = await t.importSheet(path);
    const { sheetId } = await submitSheet(t.ctx, path, { allowDuplicates: true });
    expect(sheetId).not.toBe(first.sheetId);
    const second = await waitForReport(t.ctx, sheetId);
    expect(second.counts).toMatchObject({ created: 2, duplicate: 0 });
    expect(await t.sandbox.api.listOrders()).toHaveLength(4);
    // The content stays with the import that sent it first.
    const third = await t.importSheet(path);
    expect(third.counts.duplicate).toBe(2);
    const summary = JSON.parse(
      await readFile(join(third.reportDir ?? '', 'summary.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(summary.duplicateOf).toBe(first.sheetId);
  });

  it('makes a row with a reference imported before a duplicate in another sheet', async () => {
    const t = await pipelineWith({});
    const dir = await tempDir('ledger-');
    const first = await t.importSheet(await writeCsvSheet(dir, 'a.csv', [sheetRow(1)]));
    const second = await t.importSheet(
      await writeCsvSheet(dir, 'b.csv', [sheetRow(1, { city: 'Brugge' }), sheetRow(2)]),
    );
    expect(first.counts.created).toBe(1);
    expect(second.counts).toMatchObject({ duplicate: 1, created: 1 });
    const report = await readFile(join(second.reportDir ?? '', 'report.csv'), 'utf8');
    const [orderId] = (await t.sandbox.api.listOrders()).map((o) => o.id);
    expect(report).toContain(`1;2;R-1;duplicate;${orderId};`);
  });
});

describe('a refused token', () => {
  it('stops the import early with one clear message, not one failure per row', async () => {
    const t = await pipelineWith({ token: 'not-the-token' });
    const dir = await tempDir('token-');
    await expect(
      t.importSheet(await writeCsvSheet(dir, 'orders.csv', rows(30)), 15_000),
    ).rejects.toThrow(
      /import stopped: the API refused the token \(401 .*Unauthenticated\.\): check API_TOKEN/,
    );
    const requests = await sandboxRequests(t.sandbox.api);
    expect(requests.filter((r) => r.status === 401).length).toBeLessThanOrEqual(
      t.config.settings.concurrency,
    );
    expect(await t.sandbox.api.listOrders()).toEqual([]);
    // Said to whoever reads the stop in their own language, with the API's own words inside.
    const stop = await importStopped(t.ctx);
    expect(stop && stopSaid(stop, wordsFor('nl'))).toMatch(
      /^de API weigert het token \(401 .*Unauthenticated\.\): controleer API_TOKEN \/ API_TOKEN_FILE\. De import is gepauzeerd; er wordt niets meer verstuurd\.$/,
    );
    expect(stop && stopSaid(stop, wordsFor('en'))).toMatch(
      /^the API refused the token \(401 .*Unauthenticated\.\): check API_TOKEN \/ API_TOKEN_FILE\. The import is paused; nothing more is sent\.$/,
    );

    // The token fixed, the stop is lifted (as `openImporter` does after its preflight).
    const dispatcher = new Agent();
    const good = await openContext({
      ...t.config,
      api: new ApiClient({
        baseUrl: t.sandbox.url,
        token: t.sandbox.tokens[0]?.token ?? '',
        timeoutMs: 5000,
        dispatcher,
      }),
    });
    try {
      await startWorkers(good);
      await resumeImport(good);
      const { sheetId } = await submitSheet(
        good,
        await writeCsvSheet(dir, 'again.csv', [sheetRow(301), sheetRow(302)]),
      );
      expect((await waitForReport(good, sheetId)).counts.created).toBe(2);
    } finally {
      await closeContext(good);
      await dispatcher.close();
    }
  });
});

describe('the token', () => {
  it('appears in no log line and no report file', async () => {
    const token = 'secret-token-5f1e9a';
    const t = await pipelineWith({
      sandbox: { tokens: [{ token, org: 'acme' }], faults: { p500After: 0.3, seed: 3 } },
      token,
    });
    const dir = await tempDir('leak-');
    await put(dir, 'docs/a.pdf', 'plan');
    const progress = await t.importSheet(
      await writeCsvSheet(dir, 'orders.csv', [
        ...rows(6),
        sheetRow(7, { city: '', files: 'docs/a.pdf' }),
      ]),
    );
    expect(progress.final).toBe(7);
    expect(t.logs.length).toBeGreaterThan(0);
    expect(t.logs.join('\n')).not.toContain(token);
    for (const file of ['report.csv', 'summary.json', 'needs-review.csv', 'failed/orders.csv']) {
      const text = await readFile(join(progress.reportDir ?? '', file), 'utf8').catch(() => '');
      expect(text, file).not.toContain(token);
    }
  });
});

describe('a row job that cannot go on', () => {
  it('still ends in a status when its attempts are spent on an unexpected error', async () => {
    // Slow answers: the attachment is gone before the order's create has come back.
    const t = await pipelineWith({
      settings: { rowAttempts: 2 },
      sandbox: { faults: { latencyMs: 400 } },
    });
    const dir = await tempDir('given-up-');
    await put(dir, 'docs/plan.pdf', '%PDF');
    const path = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1, { files: 'docs/plan.pdf' })]);
    const { sheetId } = await submitSheet(t.ctx, path);
    while ((await t.ctx.store.get(sheetId))?.total === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await rm(join(dir, 'docs', 'plan.pdf'));
    const progress = await waitForReport(t.ctx, sheetId);
    expect(progress.counts.failed).toBe(1);
    const [order] = await t.sandbox.api.listOrders();
    const report = await readFile(join(progress.reportDir ?? '', 'report.csv'), 'utf8');
    expect(report).toContain(
      `1;2;R-1;failed;${order?.id ?? 'none'};500001;;2;the row job gave up: `,
    );
  });
});
