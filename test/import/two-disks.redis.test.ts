/**
 * Two processes on one Redis, one prefix and one connection, with different data folders: the
 * rows of a sheet queued on B are not sent, nor given up, by A's workers; B's workers send them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type Queue, QueueEvents } from 'bullmq';
import { pino } from 'pino';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';

import { type Context, openContext } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import type { SheetSummary } from '../../src/notify/events.js';
import { queueNotification } from '../../src/notify/queue-notification.js';
import { bullConnection, queueStatus } from '../../src/queue/queues.js';
import { runSheetJob } from '../../src/split/sheet-job.js';
import { startWorkers } from '../../src/workers/start.js';
import { closeContext } from '../../src/workers/stop.js';
import { put, tempDir } from '../helpers/files.js';
import { testPipelineConfig, waitForReport } from '../helpers/pipeline.js';
import { attachmentOf, smtpReceiver } from '../helpers/receivers.js';
import { useTestRedis } from '../helpers/redis.js';
import { testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { parseRedisUrl } from '../../src/redis/target.js';

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a row job of a sheet whose files are on another data folder', () => {
  it('goes back to its queue, no attempt spent, until a worker of that folder sends it', async () => {
    const redis = await useTestRedis();
    const sandbox = await testSandbox();
    const dispatcher = new Agent();
    const logsA: string[] = [];
    const open: Context[] = [];
    let events: QueueEvents | undefined;
    try {
      const parts = async (prefix: string, logger?: pino.Logger) =>
        testPipelineConfig({
          redis,
          sandbox,
          dispatcher,
          reportsDir: join(await tempDir(prefix), 'reports'),
          ...(logger && { logger }),
        });
      const b = await openContext(await parts('rows-disk-b-'));
      open.push(b);
      const loggerA = pino({ level: 'info' }, { write: (line: string) => logsA.push(line) });
      const a = await openContext(await parts('rows-disk-a-', loggerA));
      open.push(a);
      expect(a.installation.id).not.toBe(b.installation.id);

      const dir = await tempDir('rows-two-disks-');
      await put(dir, 'plan.pdf', '%PDF-1.4 plan');
      const rows = [1501, 1502, 1503].map((n) => sheetRow(n, { files: 'plan.pdf' }));
      const { sheetId } = await submitSheet(b, await writeCsvSheet(dir, 'orders.csv', rows));
      expect(await b.store.get(sheetId)).toMatchObject({
        installation: b.installation.id,
        dataDir: join(b.settings.sheetsDir, '..'),
      });
      await runSheetJob(b, sheetId); // its rows queued, as B's sheet job would
      // Every hand-back moves a row job to the delayed set, which its queue's events tell.
      events = new QueueEvents(a.queues.rows.name, {
        connection: bullConnection(parseRedisUrl(redis.url)),
        prefix: a.settings.prefix,
      });
      await events.waitUntilReady();
      const handedBack = new Map<string, number>();
      events.on('delayed', ({ jobId }) => handedBack.set(jobId, (handedBack.get(jobId) ?? 0) + 1));
      await startWorkers(a);
      // Twice for one row at least: the second time it is taken is not said again.
      await until('a row handed back twice by A', async () =>
        [...handedBack.values()].some((times) => times >= 2),
      );
      await until('all three rows handed back by A', async () => {
        const delayed = await a.queues.rows.getDelayed();
        return delayed.length === 3;
      });
      for (const job of await a.queues.rows.getDelayed()) expect(job.attemptsMade).toBe(0);
      expect(await sandbox.api.listOrders()).toEqual([]);
      expect(await a.store.finalCount(sheetId)).toBe(0);
      const said = logsA.filter((line) => line.includes('waits for a worker of data folder'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(b.installation.id);

      // A's workers stop before B's start: both at once, the one that handed a job back asks for
      // it first when it is due again and may keep it from B for minutes (seen: a report job
      // handed back by A for over 60 s), a limit of one queue shared by data folders.
      open.splice(open.indexOf(a), 1);
      await closeContext(a, { graceMs: 2000 });
      await startWorkers(b);
      const done = await waitForReport(b, sheetId, 60_000);
      expect(done.counts).toMatchObject({ created: 3, failed: 0 });
      expect(done.reportDir?.startsWith(b.settings.reportsDir)).toBe(true);
      const orders = await sandbox.api.listOrders();
      expect(orders).toHaveLength(3);
      expect(orders.flatMap((o) => o.files)).toHaveLength(3);
    } finally {
      await events?.close();
      for (const ctx of open) await closeContext(ctx, { graceMs: 2000 });
      await dispatcher.close();
      await sandbox.close();
      await redis.cleanup();
    }
  }, 90_000);
});

describe("a reported sheet's status and e-mail jobs taken by a worker of another data folder", () => {
  it('go back to their queue, no attempt spent, said once, nothing sent, until a worker of its own folder does them', async () => {
    const redis = await useTestRedis();
    const sandbox = await testSandbox();
    const smtp = await smtpReceiver();
    const dispatcher = new Agent();
    const logsA: string[] = [];
    const open: Context[] = [];
    try {
      const notify = {
        email: { to: ['ops@agency.test'], from: 'importer@agency.test', smtpUrl: smtp.url },
        retryHours: 24,
      };
      const parts = async (prefix: string, logger?: pino.Logger) => {
        const config = await testPipelineConfig({
          redis,
          sandbox,
          dispatcher,
          reportsDir: join(await tempDir(prefix), 'reports'),
          ...(logger && { logger }),
        });
        return { ...config, settings: { ...config.settings, notify } };
      };
      const partsB = await parts('later-disk-b-');
      // B imports a sheet and stops before its e-mail is sent (none is queued without notify).
      const b = await openContext({
        ...partsB,
        settings: { ...partsB.settings, notify: undefined },
      });
      await startWorkers(b);
      const path = await writeCsvSheet(await tempDir('later-two-disks-'), 'orders.csv', [
        sheetRow(1601),
        sheetRow(1602),
      ]);
      const { sheetId } = await submitSheet(b, path);
      const done = await waitForReport(b, sheetId);
      await closeContext(b, { graceMs: 2000 });
      const summary = JSON.parse(
        await readFile(join(done.reportDir ?? '', 'summary.json'), 'utf8'),
      ) as SheetSummary;

      const loggerA = pino({ level: 'info' }, { write: (line: string) => logsA.push(line) });
      const a = await openContext(await parts('later-disk-a-', loggerA));
      open.push(a);
      await startWorkers(a);
      const [mailJob] = await queueNotification(a, { kind: 'sheet.done', summary });
      await queueStatus(a.queues, sheetId, 'run-1');
      const statusJob = `${sheetId}.status.run-1`;
      const stateOf = async (queue: Queue, id: string) =>
        (await queue.getJob(id))?.getState() ?? 'gone';
      const settled = ['delayed', 'failed', 'completed', 'gone'];
      // Judged as they were when both had settled: a job handed back waits only briefly, and A's
      // worker may have taken it again (active) by the time a second look is taken.
      let states: string[] = [];
      await until('A took both jobs', async () => {
        states = [
          await stateOf(a.queues.notify, mailJob ?? ''),
          await stateOf(a.queues.status, statusJob),
        ];
        return states.every((state) => settled.includes(state));
      });
      expect(states).toEqual(['delayed', 'delayed']);
      expect((await a.queues.status.getJob(statusJob))?.attemptsMade).toBe(0);
      expect(smtp.mails).toEqual([]);
      const said = logsA.filter((line) => line.includes('waits for a worker of data folder'));
      expect(said).toHaveLength(1);

      // A worker of B's data folder sends the e-mail with its report, and reads the orders back
      // (A's workers stopped first: both at once, a job handed back may land on A's again).
      open.splice(open.indexOf(a), 1);
      await closeContext(a, { graceMs: 2000 });
      const b2 = await openContext(partsB);
      open.push(b2);
      await startWorkers(b2);
      const [mail] = await smtp.waitFor(1, 30_000);
      expect(attachmentOf(mail?.raw ?? '', 'report.csv')).toBeDefined();
      await until('the status job done', async () =>
        ['completed', 'gone'].includes(await stateOf(b2.queues.status, statusJob)),
      );
    } finally {
      for (const ctx of open) await closeContext(ctx, { graceMs: 2000 });
      await dispatcher.close();
      await smtp.close();
      await sandbox.close();
      await redis.cleanup();
    }
  }, 90_000);
});

describe('the same content imported on B while A still imports it', () => {
  it("is B's own sheet, a duplicate that waits for A's import, reported on B's disk", async () => {
    const redis = await useTestRedis();
    const sandbox = await testSandbox();
    const dispatcher = new Agent();
    const open: Context[] = [];
    try {
      const parts = async (prefix: string) =>
        testPipelineConfig({
          redis,
          sandbox,
          dispatcher,
          reportsDir: join(await tempDir(prefix), 'reports'),
        });
      const a = await openContext(await parts('same-disk-a-'));
      open.push(a);
      const b = await openContext(await parts('same-disk-b-'));
      open.push(b);
      const path = await writeCsvSheet(await tempDir('same-two-disks-'), 'orders.csv', [
        sheetRow(1701),
        sheetRow(1702),
      ]);
      const first = await submitSheet(a, path);
      const again = await submitSheet(b, path);
      expect(again).toEqual({
        sheetId: expect.not.stringMatching(first.sheetId) as unknown,
        resumed: false,
        awaits: {
          sheetId: first.sheetId,
          installation: a.installation.id,
          dataDir: join(a.settings.sheetsDir, '..'),
        },
      });
      expect(await b.store.get(again.sheetId)).toMatchObject({
        duplicateOf: first.sheetId,
        installation: b.installation.id,
      });
      // One folder's workers at a time: each folder's jobs then go to its own workers only.
      await startWorkers(a);
      expect((await waitForReport(a, first.sheetId, 60_000)).counts).toMatchObject({ created: 2 });
      open.splice(open.indexOf(a), 1);
      await closeContext(a, { graceMs: 2000 });
      await startWorkers(b);
      const done = await waitForReport(b, again.sheetId, 60_000);
      expect(done.counts).toMatchObject({ created: 0, duplicate: 2 });
      expect(done.reportDir?.startsWith(b.settings.reportsDir)).toBe(true);
      expect(await sandbox.api.listOrders()).toHaveLength(2);
    } finally {
      for (const ctx of open) await closeContext(ctx, { graceMs: 2000 });
      await dispatcher.close();
      await sandbox.close();
      await redis.cleanup();
    }
  }, 90_000);
});
