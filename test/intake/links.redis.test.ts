import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmptyFolders } from '../../src/intake/empty-folders.js';
import { Intake } from '../../src/intake/intake.js';
import { sheetsIn } from '../../src/intake/sheets-in.js';
import { drained } from '../helpers/drain.js';
import { put, tempDir } from '../helpers/files.js';
import { leaksIn, type Outside, outsideFiles, uploadedLeaks } from '../helpers/outside.js';
import {
  type TestPipeline,
  testPipeline,
  waitForReport,
  withAttachmentLimit,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let data: string;
let outside: Outside;
let intake: Intake;
beforeAll(async () => {
  data = await tempDir('intake-links-');
  t = await testPipeline({
    settings: { archive: { workDir: join(data, 'work'), archiveDir: join(data, 'archive') } },
  });
  outside = await outsideFiles();
  intake = new Intake({
    ctx: withAttachmentLimit(t.ctx, 1 << 20),
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
    logger: t.config.logger,
  });
});
afterAll(() => t.close());

async function isLink(path: string): Promise<boolean> {
  return (await lstat(path)).isSymbolicLink();
}

describe('the intake of a dropped folder holding links', () => {
  it('takes the sheet and its real files, leaves every link where it is, says so, and moves no outside file', async () => {
    const inbox = join(data, 'inbox');
    const drop = join(inbox, 'agency');
    await put(drop, 'docs/plan.pdf', '%PDF plan');
    await put(drop, '..notes.txt', 'notes, a plain file name');
    await symlink(outside.folder, join(drop, 'linkdir'));
    await symlink(outside.file, join(drop, 'docs', 'passwd.pdf'));
    const sheet = await writeCsvSheet(drop, 'orders.csv', [
      sheetRow(1, { files: 'docs/plan.pdf' }),
      sheetRow(2, { files: 'linkdir/inner.pdf' }),
      sheetRow(3, { files: 'docs/passwd.pdf' }),
      sheetRow(4, { files: '..notes.txt' }),
    ]);

    const result = await intake.take(sheet, undefined, inbox);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';

    // Nothing outside moved; the links stayed in the inbox, still links.
    expect(await readFile(join(outside.folder, 'inner.pdf'), 'utf8')).toContain(outside.marker);
    expect(await readFile(outside.file, 'utf8')).toContain(outside.marker);
    expect(await isLink(join(drop, 'linkdir'))).toBe(true);
    expect(await isLink(join(drop, 'docs', 'passwd.pdf'))).toBe(true);
    // `..notes.txt` is a file name, not a way up: it went along with its sheet.
    const work = join(data, 'work', sheetId);
    expect((await readdir(work)).sort()).toEqual([
      '..notes.txt',
      '.intake.json',
      'docs',
      'orders.csv',
    ]);
    expect(await readdir(join(work, 'docs'))).toEqual(['plan.pdf']);

    const notTaken = await t.ctx.notTaken.recent(10);
    expect(notTaken.map((n) => n.path)).toEqual(
      expect.arrayContaining([
        join(drop, 'linkdir', 'inner.pdf'),
        join(drop, 'docs', 'passwd.pdf'),
      ]),
    );
    expect(notTaken.every((n) => /symbolic link/.test(n.reason))).toBe(true);
    expect(t.logs.join('\n')).toMatch(/symbolic link/);

    const progress = await waitForReport(t.ctx, sheetId);
    // The sheet is reported done before its work folder is archived: the report job's end.
    await drained(t.ctx.queues.reports);
    expect(progress.counts).toMatchObject({ created: 2, invalid: 2 });
    expect(await uploadedLeaks(t.sandbox.api, outside)).toEqual([]);
    for (const dir of [progress.reportDir ?? '', join(data, 'archive'), join(data, 'work')]) {
      expect(await leaksIn(dir, outside.marker)).toEqual({ files: [], links: [] });
    }
    expect(t.logs.join('\n')).not.toContain(outside.marker);
  });
});

describe('the intake of a sheet that is a link', () => {
  it('refuses it and leaves it in place, without reading it', async () => {
    const inbox = join(data, 'inbox-linked-sheet');
    await put(inbox, 'keep.txt', 'the inbox exists');
    const link = join(inbox, 'passwd.csv');
    await symlink(outside.sheet, link);

    const result = await intake.take(link, undefined, inbox);
    expect(result.kind).toBe('refused');
    expect(result.kind === 'refused' ? result.why : '').toMatch(/^passwd\.csv is a symbolic link/);
    expect(await isLink(link)).toBe(true);
    // Nothing went to failed/: neither the link nor an error file quoting what it points to.
    const failed = join(data, 'failed');
    if (existsSync(failed))
      expect(await leaksIn(failed, outside.marker)).toEqual({ files: [], links: [] });
    expect(t.logs.join('\n')).not.toContain(outside.marker);
    expect((await t.ctx.notTaken.recent(50)).map((n) => n.path)).toContain(link);
    // Told once: the next look at it (a rescan) says nothing new.
    expect(await intake.take(link, undefined, inbox)).toMatchObject({ kind: 'skipped' });
  });
});

describe('a sheet swapped for a link just before it was claimed', () => {
  it('goes back where it was, untaken, when the intake is finished after a crash', async () => {
    const inbox = join(data, 'inbox-swapped');
    await put(inbox, 'keep.txt', 'the inbox exists');
    const source = join(inbox, 'orders.csv');
    // As a crash right after the claim left it: the journal, and the link the rename moved.
    const work = join(data, 'work', '20261126-000000-1ed1ed');
    await put(work, '.intake.json', JSON.stringify({ source, files: [], queued: false }));
    await symlink(outside.sheet, join(work, 'orders.csv'));

    const recovered = await intake.recover();
    expect(recovered.finished).toEqual([]);
    expect(await isLink(source)).toBe(true);
    expect(await readdir(join(data, 'work'))).not.toContain('20261126-000000-1ed1ed');
    expect(await t.ctx.store.get('20261126-000000-1ed1ed')).toBeUndefined();
    expect((await t.ctx.notTaken.recent(50)).map((n) => n.path)).toContain(source);
  });
});

describe('the intake of a sheet in a linked folder', () => {
  it('neither finds nor takes it', async () => {
    const inbox = join(data, 'inbox-linked-folder');
    const agency = join(outside.dir, 'agency');
    await put(agency, 'docs/plan.pdf', '%PDF plan');
    await writeCsvSheet(agency, 'orders.csv', [sheetRow(9, { files: 'docs/plan.pdf' })]);
    await put(inbox, 'keep.txt', 'the inbox exists');
    await symlink(agency, join(inbox, 'linked'));

    expect(await sheetsIn(inbox)).toEqual([]);
    const result = await intake.take(join(inbox, 'linked', 'orders.csv'), undefined, inbox);
    expect(result.kind).toBe('refused');
    expect(result.kind === 'refused' ? result.why : '').toMatch(
      /^linked\/orders\.csv is in linked, a symbolic link to a folder/,
    );
    expect((await readdir(agency)).sort()).toEqual(['docs', 'orders.csv']);
    expect(await readdir(join(agency, 'docs'))).toEqual(['plan.pdf']);
  });
});

describe('the sweeper of emptied folders', () => {
  it('leaves a link to a folder alone, without an error at every sweep', async () => {
    const inbox = join(data, 'inbox-sweep');
    const empty = join(outside.dir, 'empty');
    await mkdir(empty);
    await put(inbox, 'keep.txt', 'the inbox exists');
    await symlink(empty, join(inbox, 'to-folder'));
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    const sweeper = new EmptyFolders(inbox, 100, logger);
    try {
      sweeper.add([join(inbox, 'to-folder')]);
      await new Promise((resolve) => setTimeout(resolve, 700));
    } finally {
      await sweeper.close();
    }
    expect(lines.join('\n')).not.toMatch(/ENOTDIR|could not tidy/);
    expect(await isLink(join(inbox, 'to-folder'))).toBe(true);
  });
});
