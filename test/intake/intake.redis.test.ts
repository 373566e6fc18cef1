import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let data: string;
let intake: Intake;
beforeAll(async () => {
  t = await testPipeline();
  data = await tempDir('intake-');
  intake = new Intake({
    pipeline: t.pipeline,
    catalogue: t.config.catalogue,
    maxAttachmentBytes: 1 << 20,
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
    logger: t.config.logger,
  });
});
afterAll(() => t.close());

describe('Intake', () => {
  it('moves a sheet and the attachments it names into work/<sheetId>/, and queues it', async () => {
    const inbox = join(data, 'inbox-1');
    await put(inbox, 'docs/a.pdf', '%PDF a');
    await put(inbox, 'docs/unrelated.pdf', '%PDF other');
    const path = await writeCsvSheet(inbox, 'orders.csv', [sheetRow(1, { files: 'docs/a.pdf' })]);
    const result = await intake.take(path);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const work = join(data, 'work', sheetId);
    expect((await readdir(work)).sort()).toEqual(['.intake.json', 'docs', 'orders.csv']);
    expect(await readdir(join(work, 'docs'))).toEqual(['a.pdf']);
    expect(await readdir(join(inbox, 'docs'))).toEqual(['unrelated.pdf']);
    const journal = JSON.parse(await readFile(join(work, '.intake.json'), 'utf8')) as {
      queued: boolean;
    };
    expect(journal.queued).toBe(true);
    expect((await waitForReport(t.pipeline, sheetId)).counts.created).toBe(1);
  });

  it('finishes an intake that a crash interrupted, and drops one whose sheet never arrived', async () => {
    const inbox = join(data, 'inbox-2');
    await put(inbox, 'docs/b.pdf', '%PDF b');
    const source = await writeCsvSheet(inbox, 'late.csv', [sheetRow(2, { files: 'docs/b.pdf' })]);
    // Crashed after moving the sheet, before its attachments and its queueing.
    const work = join(data, 'work', '20261126-000000-aaaaaa');
    await mkdir(work, { recursive: true });
    await writeFile(
      join(work, '.intake.json'),
      JSON.stringify({ source, files: ['docs/b.pdf'], queued: false }),
    );
    await writeFile(join(work, 'late.csv'), await readFile(source));
    // Crashed before the sheet moved: only the journal.
    const empty = join(data, 'work', '20261126-000000-bbbbbb');
    await mkdir(empty, { recursive: true });
    await writeFile(
      join(empty, '.intake.json'),
      JSON.stringify({ source: join(inbox, 'x.csv'), files: [], queued: false }),
    );

    // Queued once, but Redis does not know it (its data lost): left alone, and said.
    const lost = join(data, 'work', '20261126-000000-cccccc');
    await mkdir(lost, { recursive: true });
    await writeFile(
      join(lost, '.intake.json'),
      JSON.stringify({ source: join(inbox, 'lost.csv'), files: [], queued: true }),
    );
    await writeFile(join(lost, 'lost.csv'), await readFile(source));

    const recovered = await intake.recover();
    expect(recovered.finished).toBe(1);
    expect(recovered.stranded).toContain(lost);
    expect(await readdir(lost)).toEqual(['.intake.json', 'lost.csv']);
    expect(await readdir(join(work, 'docs'))).toEqual(['b.pdf']);
    expect(await readdir(join(data, 'work'))).not.toContain('20261126-000000-bbbbbb');
    const progress = await waitForReport(t.pipeline, '20261126-000000-aaaaaa');
    expect(progress.counts.created).toBe(1);
  });

  it('skips what is not a sheet, and a sheet another watcher took first', async () => {
    const inbox = join(data, 'inbox-3');
    expect(await intake.take(await put(inbox, 'plan.pdf', 'x'))).toEqual({
      kind: 'skipped',
      why: 'not a sheet',
    });
    expect(await intake.take(join(inbox, 'gone.csv'))).toEqual({ kind: 'skipped', why: 'gone' });
  });
});

describe('Intake with a documents folder two sheets share', () => {
  it('leaves a document the other sheet still names, so both sheets create all their orders', async () => {
    const inbox = join(data, 'inbox-4');
    await put(inbox, 'documents/shared.pdf', '%PDF shared');
    await put(inbox, 'documents/only-a.pdf', '%PDF a');
    const a = await writeCsvSheet(inbox, 'a.csv', [
      sheetRow(41, { files: 'documents/shared.pdf|documents/only-a.pdf' }),
    ]);
    const b = await writeCsvSheet(inbox, 'b.csv', [
      sheetRow(42, { files: 'documents/shared.pdf' }),
    ]);

    const first = await intake.take(a);
    expect(await readdir(join(inbox, 'documents'))).toEqual(['shared.pdf']);
    const second = await intake.take(b);
    expect(await readdir(join(inbox, 'documents'))).toEqual([]);

    for (const result of [first, second]) {
      const sheetId = result.kind === 'queued' ? result.sheetId : '';
      expect(sheetId).not.toBe('');
      const progress = await waitForReport(t.pipeline, sheetId);
      expect(progress.counts).toMatchObject({ created: 1, failed: 0, invalid: 0 });
    }
  });

  it('gives every sheet its documents when all of them are taken at once', async () => {
    // As when a folder holding three sheets and their documents is dropped in one go.
    const inbox = join(data, 'inbox-5');
    await put(inbox, 'documents/shared.pdf', '%PDF shared');
    const sheets = await Promise.all(
      [51, 52, 53].map((n) =>
        writeCsvSheet(inbox, `sheet-${n}.csv`, [sheetRow(n, { files: 'documents/shared.pdf' })]),
      ),
    );
    const results = await Promise.all(sheets.map((sheet) => intake.take(sheet)));
    for (const result of results) {
      const sheetId = result.kind === 'queued' ? result.sheetId : '';
      expect(sheetId).not.toBe('');
      const progress = await waitForReport(t.pipeline, sheetId);
      expect(progress.counts).toMatchObject({ created: 1, failed: 0, invalid: 0 });
    }
    // The last sheet took the document along: nothing is left behind in the inbox.
    expect(await readdir(join(inbox, 'documents'))).toEqual([]);
  });
});
