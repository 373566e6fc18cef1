import { readdir, readFile, writeFile, mkdir, cp } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';

import { put } from '../helpers/files.js';
import { sheetRow, writeCsvSheet, type SheetRow } from '../helpers/sheets.js';
import { watchesClosedAfterEach } from '../helpers/watch.js';

const watchFor = watchesClosedAfterEach();

function csv(rows: readonly SheetRow[]): string {
  const columns = Object.keys(rows[0] ?? {});
  return `${[columns.join(';'), ...rows.map((r) => columns.map((c) => r[c as keyof SheetRow] ?? '').join(';'))].join('\r\n')}\r\n`;
}

// Each test runs a watch process through a whole import or more: slow when the machine is busy.
describe('order-importer watch', { timeout: 90_000 }, () => {
  it('takes a sheet that was there before it started, and one copied in slowly, each once and whole', async () => {
    const w = await watchFor();
    await writeCsvSheet(w.inbox, 'before.csv', [sheetRow(1), sheetRow(2)]);
    await w.start();

    // A sheet written in small pieces, with pauses shorter than INBOX_STABLE_MS.
    const rows = Array.from({ length: 30 }, (_, i) => sheetRow(100 + i));
    const text = Buffer.from(csv(rows));
    const file = await open(join(w.inbox, 'slow.csv'), 'w');
    for (let at = 0; at < text.length; at += 256) {
      await file.write(text.subarray(at, at + 256));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await file.close();

    const sheets = await w.done(2);
    const byName = new Map(sheets.map((s) => [s.name, s]));
    expect(byName.get('before.csv')).toMatchObject({ total: 2, counts: { created: 2 } });
    expect(byName.get('slow.csv')).toMatchObject({
      total: 30,
      counts: { created: 30, invalid: 0 },
    });
    expect(sheets).toHaveLength(2);
    expect(await w.sandbox.api.listOrders()).toHaveLength(32);
    // Both left the inbox for the archive, with their intake journal.
    expect(await readdir(w.inbox)).toEqual([]);
    expect((await readdir(join(w.dataDir, 'archive'))).sort()).toEqual(
      sheets.map((s) => s.sheetId).sort(),
    );
    // Their summaries say where each sheet is now.
    for (const sheet of sheets) {
      const summary = JSON.parse(
        await readFile(join(sheet.reportDir ?? '', 'summary.json'), 'utf8'),
      ) as { sheet: string };
      expect(summary.sheet).toBe(join(w.dataDir, 'archive', sheet.sheetId, sheet.name));
    }
  });

  it('imports the same content once: dropped again, it is archived pointing at the first import (polling, as on a share)', async () => {
    const w = await watchFor();
    const running = await w.start({}, ['--poll']);
    expect(running.stderr).toContain('(polling it every second)');
    const content = csv([sheetRow(1), sheetRow(2)]);
    await writeFile(join(w.inbox, 'orders.csv'), content);
    const [first] = await w.done(1);
    await writeFile(join(w.inbox, 'orders-again.csv'), content);
    const sheets = await w.done(2);
    const second = sheets.find((s) => s.name === 'orders-again.csv');
    expect(second?.counts).toMatchObject({ duplicate: 2, created: 0 });
    const summary = JSON.parse(
      await readFile(join(second?.reportDir ?? '', 'summary.json'), 'utf8'),
    ) as { duplicateOf?: string };
    expect(summary.duplicateOf).toBe(first?.sheetId);
    expect(await readdir(join(w.dataDir, 'archive', second?.sheetId ?? ''))).toContain(
      'orders-again.csv',
    );
    expect(await w.sandbox.api.listOrders()).toHaveLength(2);

    // Two copies dropped together: one imports, the other waits for it and reports duplicates.
    const twins = csv([sheetRow(3), sheetRow(4), sheetRow(5)]);
    await Promise.all([
      writeFile(join(w.inbox, 'twin-a.csv'), twins),
      writeFile(join(w.inbox, 'twin-b.csv'), twins),
    ]);
    const all = await w.done(4);
    const counts = all.slice(2).map((s) => [s.counts.created, s.counts.duplicate]);
    expect(counts.sort()).toEqual([
      [0, 3],
      [3, 0],
    ]);
    expect(await w.sandbox.api.listOrders()).toHaveLength(5);
    expect(await readdir(w.inbox)).toEqual([]);
    expect(await readdir(join(w.dataDir, 'archive'))).toHaveLength(4);
  });

  it('moves a sheet that cannot be read to failed/, with an error file; an .xls stays, with a hint', async () => {
    const w = await watchFor();
    const running = await w.start();
    await writeFile(join(w.inbox, 'broken.csv'), 'city,remark\nGent,"never closed\n');
    await writeFile(join(w.inbox, 'orders.xls'), 'an old workbook');
    await running.waitForStderr(/orders\.xls is a spreadsheet format.*save it as \.xlsx or CSV/);
    const deadline = Date.now() + 15_000;
    let folders: string[] = [];
    while (folders.length === 0 && Date.now() < deadline) {
      folders = await readdir(join(w.dataDir, 'failed')).catch(() => []);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(folders).toHaveLength(1);
    const error = await readFile(join(w.dataDir, 'failed', folders[0] ?? '', 'error.txt'), 'utf8');
    expect(error).toMatch(/broken\.csv cannot be read.*\n\nline 2: a quoted cell is never closed/s);
    expect(await readdir(w.inbox)).toEqual(['orders.xls']);
  });

  it('imports a fixed failed/ bundle dropped back into the inbox', async () => {
    const w = await watchFor();
    await w.start();
    const folder = join(w.inbox, 'agency');
    await put(folder, 'docs/plan.pdf', '%PDF-1.4 plan');
    await writeCsvSheet(folder, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { city: '', files: 'docs/plan.pdf' }),
    ]);
    const [first] = await w.done(1);
    expect(first?.counts).toMatchObject({ created: 1, invalid: 1 });

    // The user fixes the row in the bundle and drops the whole folder back.
    const bundle = join(first?.reportDir ?? '', 'failed');
    const fixed = join(w.dataDir, 'fixing');
    await cp(bundle, fixed, { recursive: true });
    const sheet = join(fixed, 'orders.csv');
    const text = await readFile(sheet, 'utf8');
    await writeFile(sheet, text.replace(';Kerkstraat;2;;9000;', ';Kerkstraat;2;Gent;9000;'));
    await mkdir(join(w.inbox, 'fixed'));
    await cp(fixed, join(w.inbox, 'fixed'), { recursive: true });

    const sheets = await w.done(2);
    const again = sheets.find((s) => s.sheetId !== first?.sheetId);
    expect(again?.counts).toMatchObject({ created: 1, invalid: 0, failed: 0 });
    const orders = await w.sandbox.api.listOrders();
    expect(orders.map((o) => o.contact_name).sort()).toEqual(['Contact 1', 'Contact 2']);
    expect(
      orders.find((o) => o.contact_name === 'Contact 2')?.files.map((f) => f.file_name),
    ).toEqual(['plan.pdf']);

    // The dropped folders, emptied by the intake, are tidied away once they stay empty a while.
    const deadline = Date.now() + 25_000;
    while ((await readdir(w.inbox)).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await readdir(w.inbox)).toEqual([]);
  });

  it('takes the sheets of a scheduled folder', async () => {
    const w = await watchFor();
    const share = join(w.dataDir, 'share');
    await mkdir(share, { recursive: true });
    const config = await put(
      w.dataDir,
      'config.json',
      JSON.stringify({
        schedules: [
          { name: 'every-second', cron: '* * * * * *', dir: share },
          { name: 'unmounted', cron: '0 2 * * *', dir: join(w.dataDir, 'not-mounted') },
        ],
      }),
    );
    const cli = await w.start({}, ['--config', config]);
    expect(cli.stderr).toContain('Schedule "every-second" (* * * * * *) scans');
    expect(cli.stderr).toMatch(/not-mounted, which is not there \(yet\): scans fail until it is\./);
    await writeCsvSheet(share, 'nightly.csv', [sheetRow(1)]);
    const [sheet] = await w.done(1);
    expect(sheet).toMatchObject({ name: 'nightly.csv', counts: { created: 1 } });
    expect(await readdir(share)).toEqual([]);
    // Said in plain words: taken, then done with its counts and its report.
    await cli.waitForStderr(/Done: nightly\.csv \(sheet [\w-]+\): 1 created\. Report: \S+\//);
    expect(cli.stderr).toMatch(/Took \S*nightly\.csv as sheet /);

    // Started again without them, the schedules are gone from Redis: they fire no more.
    cli.child.kill('SIGTERM');
    expect((await cli.finished).code).toBe(0);
    const again = await w.start();
    const intake = new Queue('intake', {
      connection: { url: w.redis.url },
      prefix: `{${w.redis.prefix}}`,
    });
    try {
      expect(await intake.getJobSchedulers()).toEqual([]);
    } finally {
      await intake.close();
    }
    again.child.kill('SIGTERM');
    expect((await again.finished).code).toBe(0);
  });
});
