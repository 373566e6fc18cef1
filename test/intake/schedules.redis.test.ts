/**
 * Scheduled scans over a real Redis and real BullMQ workers (docs/design.md §2 "Hot folder", §6
 * "One assembly"): a scan job names its schedule, never a folder, and the worker scans the folder
 * its own settings give that schedule. A job that names a folder (an older version's, or one put
 * there by someone else) or a schedule this process does not have scans nothing.
 */
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Intake, type IntakeResult } from '../../src/intake/intake.js';
import { ScheduledFolders, syncSchedules } from '../../src/intake/schedules.js';
import { startSchedules } from '../../src/workers/schedules.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let data: string;
beforeAll(async () => {
  t = await testPipeline({ workers: false });
  data = await tempDir('schedules-');
});
afterAll(() => t.close());

function intake(): Intake {
  return new Intake({
    ctx: t.ctx,
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 50,
    logger: t.config.logger,
  });
}

/** Waits until the job has been worked (completed or failed): its end, not a sleep. */
async function worked(job: Job): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return state;
    if (Date.now() > deadline) throw new Error(`scan job ${job.id} still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('scheduled scans', () => {
  it('a scan job carries its schedule’s name, not a folder', async () => {
    const dir = await tempDir('nightly-share-');
    await syncSchedules(t.ctx.queues.intake, [{ name: 'nightly', cron: '0 2 * * *', dir }]);
    const scheduler = await t.ctx.queues.intake.getJobScheduler('schedule:nightly');
    expect(scheduler?.template?.data).toEqual({ schedule: 'nightly' });
    const next = await t.ctx.queues.intake.getDelayed();
    expect(next.map((job) => job.data as unknown)).toEqual([{ schedule: 'nightly' }]);
    expect(JSON.stringify(next.map((job) => job.data as unknown))).not.toContain(dir);
    await syncSchedules(t.ctx.queues.intake, []);
  });

  it('a job that names a folder or an unknown schedule scans nothing; its own schedule’s folder is scanned', async () => {
    const own = await tempDir('own-share-');
    const elsewhere = await tempDir('elsewhere-');
    await writeCsvSheet(elsewhere, 'not-mine.csv', [sheetRow(1)]);
    await writeCsvSheet(own, 'mine.csv', [sheetRow(2)]);
    const taken: string[] = [];
    const onResult = (path: string, result: IntakeResult) => {
      if (result.kind === 'queued') taken.push(path);
    };
    // A schedule that fires only at 2 at night: the jobs below are the only scans in this test.
    const folders = new ScheduledFolders([{ name: 'nightly', cron: '0 2 * * *', dir: own }]);
    const running = await startSchedules(t.ctx, folders, intake(), onResult);
    try {
      const queue = t.ctx.queues.intake;
      const hostile = [
        // As an older version queued them: the folder in the payload.
        await queue.add('scan', { name: 'nightly', dir: elsewhere }),
        await queue.add('scan', { schedule: 'nightly', dir: elsewhere }),
        await queue.add('scan', { schedule: 'weekly' }),
        await queue.add('scan', { schedule: '../elsewhere' }),
      ];
      for (const job of hostile) await worked(job);
      expect(await readdir(elsewhere)).toEqual(['not-mine.csv']);
      expect(taken).toEqual([]);
      expect(await readdir(own)).toEqual(['mine.csv']);
      const logged = t.logs.filter((line) => line.includes('scan job refused'));
      expect(logged).toHaveLength(hostile.length);
      expect(logged.join('\n')).not.toContain('not-mine.csv');

      const fair = await queue.add('scan', { schedule: 'nightly' });
      expect(await worked(fair)).toBe('completed');
      expect(taken).toEqual([join(own, 'mine.csv')]);
    } finally {
      await running.close();
      await syncSchedules(t.ctx.queues.intake, []);
    }
  });

  it('a schedule’s folder that has become a link into another office’s inbox is not scanned', async () => {
    const brugge = join(await tempDir('offices-inbox-'), 'brugge');
    await mkdir(brugge, { recursive: true });
    await writeCsvSheet(brugge, 'brugge.csv', [sheetRow(3)]);
    const nightly = join(await tempDir('offices-share-'), 'nightly');
    const folders = new ScheduledFolders(
      [{ name: 'nightly', cron: '0 2 * * *', dir: nightly }],
      'gent',
      [{ name: 'brugge', dir: brugge }],
    );
    const taken: string[] = [];
    // Checked at start while the folder is not there yet; the link comes later.
    const running = await startSchedules(t.ctx, folders, intake(), (path) => taken.push(path));
    try {
      await symlink(brugge, nightly);
      const job = await t.ctx.queues.intake.add('scan', { schedule: 'nightly' });
      await worked(job);
      expect(taken).toEqual([]);
      expect(await readdir(brugge)).toEqual(['brugge.csv']);
      expect(t.logs.join('\n')).toContain('leads into the inbox of \\"brugge\\"');
    } finally {
      await running.close();
      await syncSchedules(t.ctx.queues.intake, []);
    }
  });
});
