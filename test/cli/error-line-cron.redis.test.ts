/**
 * A cron pattern BullMQ cannot read, of a schedule or of STATUS_SYNC_CRON: refused at start, and
 * said in Dutch and French with BullMQ's own detail.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';

import { syncSchedules } from '../../src/intake/schedules.js';
import { syncStatusSchedule } from '../../src/workers/schedules.js';
import { expectSaid, thrown } from '../helpers/error-said.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';

let t: TestPipeline;
beforeAll(async () => {
  t = await testPipeline({ workers: false });
});
afterAll(() => t.close());

describe('a cron pattern that is none', () => {
  it("a schedule's and STATUS_SYNC_CRON: in Dutch and French", async () => {
    const dir = await tempDir('cron-');
    expectSaid(
      await thrown(() =>
        syncSchedules(t.ctx.queues.intake, [{ name: 'nightly', cron: '99 99 * * *', dir }]),
      ),
    );
    expectSaid(await thrown(() => syncStatusSchedule(t.ctx, '99 99 * * *')));
  });
});
