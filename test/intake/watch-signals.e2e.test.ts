import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { watchesClosedAfterEach } from '../helpers/watch.js';
import { recentProgress } from '../../src/store/progress.js';

// A watch process killed or stopped under an import (apart from watch.e2e.test.ts, so that the
// two files, each a minute of imports, run side by side).
const watchFor = watchesClosedAfterEach();

describe('order-importer watch killed', { timeout: 90_000 }, () => {
  it('resumes after being killed with SIGKILL mid-import: finished, no order twice, one report', async () => {
    const w = await watchFor({ sandbox: { faults: { latencyMs: 150 } } });
    const first = await w.start();
    await writeCsvSheet(
      w.inbox,
      'orders.csv',
      Array.from({ length: 24 }, (_, i) => sheetRow(i + 1)),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [sheet] = await recentProgress(w.ctx.store);
      if ((sheet?.final ?? 0) >= 5) break;
      if (Date.now() > deadline) throw new Error('the import did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.signal('SIGKILL');
    await first.finished;
    await w.start();
    const [sheet] = await w.done(1, 60_000);
    expect((sheet?.counts.created ?? 0) + (sheet?.counts['needs-review'] ?? 0)).toBe(24);
    const orders = await w.sandbox.api.listOrders();
    const contacts = orders.map((o) => o.contact_name);
    expect(new Set(contacts).size).toBe(contacts.length);
    expect((await w.ctx.store.get(sheet?.sheetId ?? ''))?.reportWrites).toBe(1);
    expect(
      (await readdir(join(w.dataDir, 'reports'))).filter((d) => d.endsWith(sheet?.sheetId ?? '')),
    ).toHaveLength(1);
  });
});

describe('stopping order-importer watch', () => {
  it('stops at once on a second signal, without waiting for the requests in flight', async () => {
    // Every answer takes 10 s: a graceful stop would wait for the requests in flight.
    const w = await watchFor({ sandbox: { faults: { latencyMs: 10_000 } } });
    const first = await w.start();
    await writeCsvSheet(w.inbox, 'orders.csv', [sheetRow(1), sheetRow(2)]);
    const deadline = Date.now() + 20_000;
    while ((await recentProgress(w.ctx.store))[0]?.total === undefined) {
      if (Date.now() > deadline) throw new Error('the sheet was not taken');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // the creates are on their way
    first.child.kill('SIGTERM');
    await first.waitForStderr(/no more sheets are taken/);
    const started = Date.now();
    first.child.kill('SIGTERM');
    const finished = await first.finished;
    expect(finished.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(finished.stderr).toContain('Stopping now');
    expect(finished.stderr).toContain('Stopped.\n');
  });
});
