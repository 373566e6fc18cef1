/**
 * A row job BullMQ gave up on ends with what is known of its row, read as a running job reads
 * it (rows/row-record.ts): its order, wherever that is recorded, is never left out.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { giveUpJob } from '../../src/rows/give-up.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import { sentEntry } from '../../src/store/row-progress.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { validOrder } from '../helpers/orders.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function rowData(t: TestPipeline, extra: Partial<RowJobData>): RowJobData {
  return {
    connectionId: t.config.connection.id,
    sheetId: 'given-up',
    row: 1,
    line: 2,
    key: null,
    order: validOrder(),
    attachments: [
      { path: 'docs/plan.pdf', bytes: 9 },
      { path: 'docs/photo.jpg', bytes: 9 },
    ],
    ...extra,
  };
}

describe('a row job given up', () => {
  it('dropped back from failed/, is failed with its order and the files still missing', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const data = rowData(t, { existingOrderId: 4321 });
    await giveUpJob(t.ctx, 'rows', { data, attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome).toMatchObject({
      status: 'failed',
      orderId: 4321,
      fileIds: [null, null],
      missingFiles: ['docs/plan.pdf', 'docs/photo.jpg'],
      error: 'the row job gave up: boom',
    });
  });

  it('with its order and a file recorded in Redis, is failed naming the other file', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const me = { sheetId: 'given-up', row: 1 };
    await t.ctx.progress.save(me, {
      orderId: 99,
      inspectionIds: [990],
      fileIds: [5, null],
      resent: [],
    });
    await giveUpJob(t.ctx, 'rows', { data: rowData(t, {}), attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome).toMatchObject({
      status: 'failed',
      orderId: 99,
      inspectionIds: [990],
      fileIds: [5, null],
      missingFiles: ['docs/photo.jpg'],
    });
  });

  it('with its create claimed and never answered, needs review, saying when it left', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const me = { sheetId: 'given-up', row: 1 };
    const sentAt = '2026-11-26T10:00:00.000Z';
    expect(await t.ctx.progress.claim(me, sentEntry('1.x', sentAt))).toBeUndefined();
    await giveUpJob(t.ctx, 'rows', { data: rowData(t, {}), attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome?.status).toBe('needs-review');
    // When it left, as a person reads a time: in Belgium, as the office's language writes it.
    expect(outcome?.error).toContain('after sending its create at 26 Nov 2026, 11:00');
  });

  it('says when its create left, and why it was given up, in the office’s words', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const me = { sheetId: 'given-up', row: 1 };
    expect(
      await t.ctx.progress.claim(me, sentEntry('1.x', '2026-11-26T10:00:00.000Z')),
    ).toBeUndefined();
    const ctx = { ...t.ctx, words: wordsFor('nl') };
    await giveUpJob(ctx, 'rows', { data: rowData(t, {}), attemptsStarted: 3 }, 'boom');
    const [outcome] = await t.ctx.store.outcomes('given-up', [1]);
    expect(outcome?.error).toContain('nadat de opdracht verstuurd was op 26 nov 2026, 11:00:');
  });
});

const sheetRecord = (t: TestPipeline, sheetId: string) => ({
  sheetId,
  path: `/tmp/${sheetId}.csv`,
  name: `${sheetId}.csv`,
  sha256: `sha-${sheetId}`,
  connectionId: t.ctx.connection.id,
  apiBaseUrl: 'http://api',
  sandbox: false,
  allowDuplicates: false,
  startedAt: new Date().toISOString(),
});

describe('a sheet job given up before a single row was counted', () => {
  it.each([
    ['en', 'it stopped before its rows were read: the sheet job gave up: ENAMETOOLONG'],
    [
      'nl',
      'De verwerking stopte voordat de rijen gelezen waren: het inlezen van de lijst werd stopgezet: ENAMETOOLONG',
    ],
    [
      'fr',
      'le traitement s’est arrêté avant la lecture des lignes\u202f: le traitement de la liste a été abandonné\u202f: ENAMETOOLONG',
    ],
    ['qps', '⟦it stopped before its rows were read: ⟦the sheet job gave up: ENAMETOOLONG⟧⟧'],
  ] as const)('gives its sheet an error in the office’s words (%s)', async (language, error) => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const sheetId = `early-${language}`;
    await t.ctx.store.create(sheetRecord(t, sheetId));
    const ctx = { ...t.ctx, words: wordsFor(language) };
    await giveUpJob(ctx, 'sheets', { data: { sheetId }, attemptsStarted: 3 }, 'ENAMETOOLONG');
    expect((await t.ctx.store.get(sheetId))?.error).toBe(error);
  });
});
