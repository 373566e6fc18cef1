import { lstat, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { put } from '../helpers/files.js';
import { leaksIn, outsideFiles, uploadedLeaks } from '../helpers/outside.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';
import { unzip } from '../helpers/zip.js';
import { recentProgress } from '../../src/store/progress.js';

const running: TestWatch[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.close()));
});

describe('order-importer watch with links in its inbox', { timeout: 90_000 }, () => {
  it('follows none: no linked sheet or folder is taken, and no outside byte is sent, archived, reported or zipped', async () => {
    const outside = await outsideFiles();
    const w = await testWatch();
    running.push(w);
    // A folder outside, holding a sheet, linked into the inbox.
    const agency = join(outside.dir, 'agency');
    await put(agency, 'docs/plan.pdf', `%PDF ${outside.marker} agency plan`);
    await writeCsvSheet(agency, 'orders.csv', [sheetRow(90, { files: 'docs/plan.pdf' })]);
    await put(w.inbox, '.keep', '');
    await symlink(agency, join(w.inbox, 'linked'));
    // A sheet that is a link to a file outside.
    await symlink(outside.sheet, join(w.inbox, 'passwd.csv'));
    // A dropped folder whose attachments include links.
    const drop = join(w.inbox, 'drop');
    await put(drop, 'docs/plan.pdf', '%PDF plan');
    await put(drop, '..notes.txt', 'notes');
    await symlink(outside.folder, join(drop, 'linkdir'));
    await symlink(outside.file, join(drop, 'docs', 'passwd.pdf'));
    await writeCsvSheet(drop, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { files: 'linkdir/inner.pdf' }),
      sheetRow(3, { files: '..notes.txt' }),
      sheetRow(4, { city: '', files: 'docs/plan.pdf|docs/passwd.pdf' }),
    ]);

    const cli = await w.start();
    const [sheet] = await w.done(1, 60_000);
    expect(sheet?.counts).toMatchObject({ created: 2, invalid: 2 });
    await cli.waitForStderr(/passwd\.csv is a symbolic link/);
    await cli.waitForStderr(/linked is a symbolic link/);
    // Drained, then counted: a sheet dropped after the links were refused is taken and done, so
    // the watcher has worked through everything it saw before it; only that sheet came in since.
    await writeCsvSheet(w.inbox, 'after.csv', [sheetRow(5)]);
    await w.done(2, 60_000);
    expect((await recentProgress(w.ctx.store)).map((s) => s.name).sort()).toEqual([
      'after.csv',
      'orders.csv',
    ]);

    // The outside files are where they were; the links are still links, in the inbox.
    expect(await readFile(join(agency, 'orders.csv'), 'utf8')).toContain('R-90');
    expect(await readFile(join(outside.folder, 'inner.pdf'), 'utf8')).toContain(outside.marker);
    for (const link of ['linked', 'passwd.csv', 'drop/linkdir', 'drop/docs/passwd.pdf'])
      expect((await lstat(join(w.inbox, link))).isSymbolicLink()).toBe(true);

    expect(await uploadedLeaks(w.sandbox.api, outside)).toEqual([]);
    for (const dir of ['reports', 'archive', 'work', 'failed'])
      expect(await leaksIn(join(w.dataDir, dir), outside.marker)).toEqual({ files: [], links: [] });
    const zip = await fetch(
      `http://127.0.0.1:${w.dashboardPort}/reports/${sheet?.sheetId ?? ''}/failed.zip`,
    );
    const entries = unzip(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(['failed/docs/plan.pdf', 'failed/orders.csv']);
    expect(cli.stderr).not.toContain(outside.marker);
    expect(cli.stderr).not.toMatch(/ENOTDIR/);
  });
});
