/**
 * The intake and a sheet's mapping: read when the sheet is taken, kept in its journal, so that
 * an intake a crash interrupted is finished with the mapping of when it was taken; the sheets
 * beside it are read with it too (what documents they still need); a mapping.json is no sheet.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { mappingRecord, parseMappingFile } from '../../src/orders/mapping.js';
import { DUTCH_MAPPING, DUTCH_ROWS, writeDutchSheet } from '../helpers/dutch-sheet.js';
import { tempDir } from '../helpers/files.js';
import {
  type TestPipeline,
  testPipeline,
  waitForReport,
  withAttachmentLimit,
} from '../helpers/pipeline.js';

let t: TestPipeline;
let data: string;
let intake: Intake;
beforeAll(async () => {
  t = await testPipeline();
  data = await tempDir('mapping-intake-');
  intake = new Intake({
    ctx: withAttachmentLimit(t.ctx, 1 << 20),
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
    logger: t.config.logger,
  });
});
afterAll(() => t.close());

/** The Dutch rows, each made a row of its own by `tag` (reference and contact). */
function rowsTagged(tag: string, files = true): string[][] {
  return DUTCH_ROWS.map((cells, i) => {
    const row = [...cells];
    [row[0], row[6]] = [`${tag}-${i + 1}`, `${tag} ${i + 1}`];
    if (!files) row[15] = '';
    return row;
  });
}

describe('the intake with a mapping.json beside the sheet', () => {
  it('takes no mapping.json as a sheet', async () => {
    const inbox = join(data, 'inbox-itself');
    const { mapping } = await writeDutchSheet(inbox);
    expect(await intake.take(mapping ?? '')).toEqual({ kind: 'skipped', why: 'not a sheet' });
  });

  it('keeps the mapping in the journal and queues the sheet with it', async () => {
    const inbox = join(data, 'inbox-1');
    const { sheet, mapping } = await writeDutchSheet(inbox, { rows: rowsTagged('J') });
    const result = await intake.take(sheet);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const journal = JSON.parse(
      await readFile(join(data, 'work', sheetId, '.intake.json'), 'utf8'),
    ) as { mapping: unknown };
    expect(journal.mapping).toEqual({
      source: { kind: 'beside', file: mapping },
      json: DUTCH_MAPPING,
    });
    // It stays where it is, for the next sheets dropped there.
    expect((await readdir(inbox)).sort()).toEqual(['docs', 'mapping.json']);
    const progress = await waitForReport(t.ctx, sheetId);
    expect(progress.counts).toMatchObject({ created: 2, invalid: 1 });
  });

  it('finishes an intake a crash interrupted with the mapping of when it was taken', async () => {
    const inbox = join(data, 'inbox-2');
    const { sheet, mapping } = await writeDutchSheet(inbox, { rows: rowsTagged('C') });
    const taken = parseMappingFile(DUTCH_MAPPING, { kind: 'beside', file: mapping ?? '' });
    // Crashed after moving the sheet; the mapping.json was broken since.
    const work = join(data, 'work', '20261126-000000-eeeeee');
    await mkdir(work, { recursive: true });
    await writeFile(
      join(work, '.intake.json'),
      JSON.stringify({
        source: sheet,
        files: ['docs/plan-1.pdf', 'docs/plan-2.pdf'],
        queued: false,
        mapping: mappingRecord(taken),
      }),
    );
    await writeFile(join(work, 'orders-nl.csv'), await readFile(sheet));
    await writeFile(mapping ?? '', '{ not json');
    const recovered = await intake.recover();
    expect(recovered.finished).toContain('20261126-000000-eeeeee');
    const progress = await waitForReport(t.ctx, '20261126-000000-eeeeee');
    expect(progress.counts).toMatchObject({ created: 2, invalid: 1 });
  });

  it('reads the sheets beside one with its mapping, so a document they share is left for them', async () => {
    const inbox = join(data, 'inbox-3');
    const first = await writeDutchSheet(inbox, { name: 'first.csv', rows: rowsTagged('S') });
    const second = await writeDutchSheet(inbox, { name: 'second.csv', rows: rowsTagged('T') });
    const a = await intake.take(first.sheet);
    const b = await intake.take(second.sheet);
    const ids = [a, b].map((r) => (r.kind === 'queued' ? r.sheetId : ''));
    for (const id of ids) {
      const progress = await waitForReport(t.ctx, id);
      // Both plans reached both sheets: a plan moved away by the first would fail the second.
      expect(progress.counts).toMatchObject({ created: 2, invalid: 1 });
    }
  });
});
