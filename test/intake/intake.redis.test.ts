import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { put, tempDir } from '../helpers/files.js';
import {
  type TestPipeline,
  testPipeline,
  waitForReport,
  withAttachmentLimit,
} from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let data: string;
let intake: Intake;
beforeAll(async () => {
  t = await testPipeline();
  data = await tempDir('intake-');
  intake = new Intake({ ...intakeOptions(), logger: t.config.logger });
});
afterAll(() => t.close());

function intakeOptions() {
  return {
    ctx: withAttachmentLimit(t.ctx, 1 << 20),
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
  };
}

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
    expect((await waitForReport(t.ctx, sheetId)).counts.created).toBe(1);
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

    // Another process is moving its sheet into this one right now: it must not be removed.
    const arriving = join(data, 'work', '20261126-000000-dddddd');
    await mkdir(arriving, { recursive: true });
    await writeFile(
      join(arriving, '.intake.json'),
      JSON.stringify({ source: join(inbox, 'arriving.csv'), files: [], queued: false }),
    );
    await writeFile(join(arriving, 'half-moved.pdf'), '%PDF');

    const recovered = await intake.recover();
    expect(recovered.finished).toEqual(['20261126-000000-aaaaaa']);
    expect((await readdir(arriving)).sort()).toEqual(['.intake.json', 'half-moved.pdf']);
    expect(recovered.stranded).toContain(lost);
    expect(await readdir(lost)).toEqual(['.intake.json', 'lost.csv']);
    expect(await readdir(join(work, 'docs'))).toEqual(['b.pdf']);
    expect(await readdir(join(data, 'work'))).not.toContain('20261126-000000-bbbbbb');
    const progress = await waitForReport(t.ctx, '20261126-000000-aaaaaa');
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
      const progress = await waitForReport(t.ctx, sheetId);
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
      const progress = await waitForReport(t.ctx, sheetId);
      expect(progress.counts).toMatchObject({ created: 1, failed: 0, invalid: 0 });
    }
    // The last sheet took the document along: nothing is left behind in the inbox.
    expect(await readdir(join(inbox, 'documents'))).toEqual([]);
  });

  it('gives every sheet its documents when two watchers take one folder at once', async () => {
    const inbox = join(data, 'inbox-6');
    await put(inbox, 'docs/shared.pdf', '%PDF shared');
    const numbers = Array.from({ length: 12 }, (_, i) => 60 + i);
    const sheets = await Promise.all(
      numbers.map((n) =>
        writeCsvSheet(inbox, `sheet-${n}.csv`, [sheetRow(n, { files: 'docs/shared.pdf' })]),
      ),
    );
    const other = new Intake({ ...intakeOptions(), logger: t.config.logger });
    const results = await Promise.all(
      [intake, other].flatMap((watcher) => sheets.map((sheet) => watcher.take(sheet))),
    );
    const queued = results.flatMap((r) => (r.kind === 'queued' ? [r.sheetId] : []));
    expect(queued).toHaveLength(12);
    for (const sheetId of queued) {
      const progress = await waitForReport(t.ctx, sheetId);
      expect(progress.counts).toMatchObject({ created: 1, invalid: 0 });
    }
  });

  it('takes no more sheets once stopping: those waiting their turn stay in the inbox', async () => {
    const inbox = join(data, 'inbox-9');
    const sheets = await Promise.all(
      Array.from({ length: 10 }, (_, i) => writeCsvSheet(inbox, `s-${i}.csv`, [sheetRow(90 + i)])),
    );
    const stopping = new AbortController();
    const takes = sheets.map((sheet) => intake.take(sheet, stopping.signal));
    await Promise.race(takes);
    stopping.abort();
    const results = await Promise.all(takes);
    const stayed = results.filter((r) => r.kind === 'skipped' && r.why === 'stopping');
    expect(stayed.length).toBeGreaterThan(0);
    expect((await readdir(inbox)).filter((name) => name.endsWith('.csv'))).toHaveLength(
      stayed.length,
    );
  });

  it('copies, not moves, what a sibling still being written may name', async () => {
    const inbox = join(data, 'inbox-7');
    await put(inbox, 'docs/shared.pdf', '%PDF shared');
    const done = await writeCsvSheet(inbox, 'done.csv', [
      sheetRow(71, { files: 'docs/shared.pdf' }),
    ]);
    // Still being copied: it names nothing yet, but its last rows may.
    const growing = await put(inbox, 'growing.csv', 'reference;city\r\n');
    const busy = Date.now() / 1000 + 60;
    await utimes(growing, busy, busy);
    expect((await intake.take(done)).kind).toBe('queued');
    expect(await readdir(join(inbox, 'docs'))).toEqual(['shared.pdf']);
  });

  it('takes a sheet rewritten while it waited for its documents as it is now', async () => {
    const inbox = join(data, 'inbox-8');
    await put(inbox, 'docs/here.pdf', '%PDF here');
    const path = await writeCsvSheet(inbox, 'orders.csv', [
      sheetRow(81, { files: 'docs/late.pdf' }),
    ]);
    const taking = intake.take(path);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await writeCsvSheet(inbox, 'orders.csv', [sheetRow(81, { files: 'docs/here.pdf' })]);
    const result = await taking;
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const progress = await waitForReport(t.ctx, sheetId);
    expect(progress.counts).toMatchObject({ created: 1, invalid: 0 });
    expect(await readdir(join(inbox, 'docs'))).toEqual([]);
  });
});
