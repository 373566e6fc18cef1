/**
 * The duplicates ledger over time, through the whole import: a row imported before is a
 * `duplicate` from any later sheet for LEDGER_DAYS, then it is imported again. The context's clock
 * is moved by whole days; nothing sleeps.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { openContext } from '../../src/context.js';
import { submitSheet } from '../../src/intake/submit.js';
import { closeContext } from '../../src/workers/stop.js';
import { startWorkers } from '../../src/workers/start.js';
import { testContextParts, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const DAY = 86_400_000;
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

describe('LEDGER_DAYS', () => {
  it('catches a row imported before from another sheet, then imports it again once forgotten', async () => {
    const { sandbox, dir, config, close } = await testContextParts('ledger-days-');
    closing.push(close);
    // Midnight of a fixed day, then real time: a run across midnight does not move the days.
    const clock = { days: 0 };
    const started = Date.now();
    const ctx = await openContext({
      ...config,
      settings: { ...config.settings, ledgerDays: 3 },
      now: () => Date.UTC(2026, 0, 1) + (Date.now() - started) + clock.days * DAY,
    });
    closing.push(() => closeContext(ctx, { graceMs: 1000 }));
    await startWorkers(ctx);
    const importSheet = async (name: string, rows: number[]) => {
      const path = await writeCsvSheet(
        dir,
        name,
        rows.map((n) => sheetRow(n)),
      );
      const { sheetId } = await submitSheet(ctx, path);
      return (await waitForReport(ctx, sheetId)).counts;
    };

    expect(await importSheet('day0.csv', [1, 2])).toMatchObject({ created: 2 });
    clock.days = 2;
    expect(await importSheet('day2.csv', [1, 2, 3])).toMatchObject({ created: 1, duplicate: 2 });
    // On day 3, R-1 and R-2 (made on day 0) are remembered still: three whole days.
    clock.days = 3;
    expect(await importSheet('day3.csv', [1])).toMatchObject({ created: 0, duplicate: 1 });
    // On day 4 they were made more than 3 days ago, R-3 two days ago: only R-3 is remembered.
    clock.days = 4;
    expect(await importSheet('day4.csv', [3, 1, 2])).toMatchObject({ created: 2, duplicate: 1 });
    const orders = await sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name).sort()).toEqual([
      'Contact 1',
      'Contact 1',
      'Contact 2',
      'Contact 2',
      'Contact 3',
    ]);
  });
});
