/**
 * docs/design.md "One installation, one namespace": two installations (two data folders) on one
 * Redis and one prefix, with one connection (the same API and token). A job of one installation
 * that BullMQ gives up on (stalled more often than STALLED_RESUMES) is failed by whichever worker
 * takes it next, here a real worker of the other installation: that worker hears it in its
 * `failed` event, and must leave it to the installation that queued it — its row is not settled,
 * its sheet not closed from here — whose own reconciler settles it.
 */
import { type Job, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { STALLED_RESUMES } from '../../src/policy.js';
import { bullConnection, rowJobId } from '../../src/queue/queues.js';
import { reconcile } from '../../src/rows/reconcile.js';
import { startWorkers } from '../../src/workers/start.js';
import { eventually } from '../helpers/eventually.js';
import { besideAnotherInstallation } from '../helpers/pipeline.js';

/** A sheet queued by the installation of `ctx`; `rows` rows counted when given. */
async function sheetOf(ctx: Context, sheetId: string, rows?: number): Promise<void> {
  await ctx.store.create({
    sheetId,
    path: `/tmp/${sheetId}.csv`,
    name: `${sheetId}.csv`,
    sha256: `sha-${sheetId}`,
    connectionId: ctx.connection.id,
    installation: ctx.installation.id,
    apiBaseUrl: 'http://api',
    sandbox: false,
    allowDuplicates: false,
    startedAt: new Date().toISOString(),
  });
  if (rows !== undefined) await ctx.store.setTotal(sheetId, rows);
}

/**
 * The queue's next job taken by a worker of `ctx`'s installation that then dies: its lock lapses
 * and is never renewed. It had stalled STALLED_RESUMES times before (the count BullMQ keeps on
 * the job, written here rather than killing fifty processes), so its next stall is one too many.
 */
async function stallOnceTooOften(ctx: Context, queue: string): Promise<Job> {
  const dying = new Worker(queue, undefined, {
    connection: bullConnection(ctx.settings.redis),
    prefix: ctx.settings.prefix,
    lockDuration: 300,
  });
  try {
    const job = (await dying.getNextJob('dying-worker')) as Job | undefined;
    if (!job?.id) throw new Error('a queued job was not handed out');
    await ctx.redis.hset(`${ctx.settings.prefix}:${queue}:${job.id}`, 'stc', STALLED_RESUMES);
    return job;
  } finally {
    await dying.close();
  }
}

describe('a job given up, heard by a worker of another installation on the same Redis', () => {
  const installations = besideAnotherInstallation();

  it('is left to the installation that queued it, whose reconciler settles it', async () => {
    const t = installations.mine();
    const theirs = installations.theirs();
    expect(theirs.connection.id).toBe(t.ctx.connection.id);
    expect(theirs.installation.id).not.toBe(t.ctx.installation.id);
    await sheetOf(theirs, 'a-rows', 2);
    const data = {
      connectionId: theirs.connection.id,
      sheetId: 'a-rows',
      row: 1,
      line: 2,
      key: null,
      order: {},
      attachments: [],
    };
    await theirs.queues.rows.add('row', data, { jobId: rowJobId('a-rows', 1) });
    await sheetOf(theirs, 'a-sheet');
    await theirs.queues.sheets.add('sheet', { sheetId: 'a-sheet' }, { jobId: 'a-sheet.sheet' });
    const row = await stallOnceTooOften(theirs, theirs.queues.rows.name);
    const sheet = await stallOnceTooOften(theirs, theirs.queues.sheets.name);

    // This installation's real workers: their stalled check fails both jobs, one of them takes each.
    await startWorkers(t.ctx);
    const leftAlone = (jobId: string) =>
      t.logs.some((line) => line.includes('not settled here') && line.includes(`"${jobId}"`));
    for (const [queue, job] of [
      [theirs.queues.rows, row],
      [theirs.queues.sheets, sheet],
    ] as const)
      await eventually(
        async () => ((await queue.getJobState(job.id ?? '')) === 'failed' ? true : undefined),
        () => `job ${job.id ?? ''} not failed`,
      );
    await eventually(
      async () =>
        (await t.ctx.store.isFinal('a-rows', 1)) ||
        (await t.ctx.store.get('a-sheet'))?.warnings.length ||
        (leftAlone('a-rows.r1') && leftAlone('a-sheet.sheet'))
          ? true
          : undefined,
      () => 'the given-up jobs were not heard',
    );
    expect(await t.ctx.store.isFinal('a-rows', 1)).toBe(false);
    expect((await t.ctx.store.get('a-sheet'))?.total).toBeUndefined();
    expect((await t.ctx.store.get('a-sheet'))?.warnings).toEqual([]);

    expect(await reconcile(theirs)).toMatchObject({ rows: 1, sheets: 1 });
    expect(await theirs.store.outcomes('a-rows', [1])).toMatchObject([
      { status: 'failed', error: expect.stringContaining('stalled more than') as unknown },
    ]);
    // A hang guard: each wait above is bounded, and a loaded machine stretches BullMQ's checks.
  }, 90_000);
});
