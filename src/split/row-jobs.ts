/**
 * One batch of validated rows turned into what the sheet job hands on: an outcome recorded at
 * once for each invalid row (or, for a sheet imported before, for every row), and a row job
 * queued for each valid one, with an id of its own so that a retried sheet job adds none twice.
 */
import type { Context } from '../context.js';
import { recordOutcomes } from '../rows/outcome.js';
import { rowJobId } from '../queue/queues.js';
import { duplicateOutcome, type EarlierRow } from '../report/earlier-report.js';
import type { RowJobData } from '../rows/row-data.js';
import type { RowResult } from '../sheets/read-sheet.js';
import { ledgerKey, type Ledger } from '../store/ledger.js';
import type { RowOutcome } from '../glossary.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { turnOf } from './turns.js';

/** Row jobs per addBulk call: one round trip to Redis each. */
const CHUNK = 500;

type RowJob = { name: string; data: RowJobData; opts: { jobId: string; priority: number } };

/**
 * Records invalid rows and queues valid ones (or, for a sheet imported before, records all), each
 * at its turn among the office's rows (turns.ts: the sheet's turns begin at `firstTurn`).
 */
export async function recordOrQueue(
  ctx: Context,
  sheet: SheetRecord,
  batch: readonly RowResult[],
  earlier: Map<number, EarlierRow> | undefined,
  firstTurn: number,
): Promise<void> {
  const outcomes: Array<[number, RowOutcome]> = [];
  const jobs: RowJob[] = [];
  for (const result of batch) {
    const where = {
      line: result.line,
      ...(result.reference !== undefined && { reference: result.reference }),
    };
    const key =
      !result.ok || sheet.allowDuplicates || result.orderId !== undefined
        ? null
        : ledgerKey(ctx.connection.id, {
            reference: result.reference,
            order: result.order,
            files: result.attachments.map((a) => a.path),
          });
    if (sheet.duplicateOf !== undefined) {
      // The same bytes were imported before: every row is told so, and nothing is sent.
      const row = earlier?.get(result.row) ?? (await fromLedger(key, ctx.ledger));
      const again = duplicateOutcome(ctx.words, sheet.duplicateOf, row);
      outcomes.push([result.row, { ...where, ...again }]);
    } else if (!result.ok) {
      // Each problem names its column itself, in the office's words (read-sheet.ts).
      const error = result.problems.map((p) => p.message);
      outcomes.push([
        result.row,
        { ...where, status: 'invalid', attempts: 0, error: error.join(' | ') },
      ]);
    } else jobs.push(rowJob(ctx, sheet, result, { ...where, key, firstTurn }));
  }
  await recordOutcomes(ctx, sheet.sheetId, outcomes);
  for (let i = 0; i < jobs.length; i += CHUNK) {
    await ctx.queues.rows.addBulk(jobs.slice(i, i + CHUNK));
  }
}

function rowJob(
  ctx: Context,
  sheet: SheetRecord,
  result: RowResult & { ok: true },
  how: { line: number | null; reference?: string; key: string | null; firstTurn: number },
): RowJob {
  const { firstTurn, ...where } = how;
  return {
    name: 'row',
    data: {
      connectionId: ctx.connection.id,
      sheetId: sheet.sheetId,
      row: result.row,
      ...where,
      order: result.order,
      // Where a file is is found again from its sheet's folder (rows/attachment-source.ts).
      attachments: result.attachments.map(({ path, bytes }) => ({ path, bytes })),
      ...(result.orderId !== undefined && { existingOrderId: result.orderId }),
    },
    opts: {
      jobId: rowJobId(sheet.sheetId, result.row),
      priority: turnOf(firstTurn, result.row),
    },
  };
}

/** What the ledger knows of a row when the earlier report is gone. */
async function fromLedger(key: string | null, ledger: Ledger): Promise<EarlierRow | undefined> {
  const entry = key === null ? undefined : await ledger.lookup(key);
  return entry?.state === 'created' && entry.orderId !== undefined
    ? { status: 'created', orderId: entry.orderId }
    : undefined;
}

/** Rows of a sheet that changed while it was imported: each `failed`, with why. */
export async function refuseRows(
  ctx: Context,
  sheet: SheetRecord,
  batch: readonly RowResult[],
): Promise<void> {
  const refused = ctx.words.t('rows.outcome.sheetChanged');
  const outcomes = batch.map((result): [number, RowOutcome] => [
    result.row,
    {
      line: result.line,
      ...(result.reference !== undefined && { reference: result.reference }),
      status: 'failed',
      attempts: 0,
      error: refused,
    },
  ]);
  await recordOutcomes(ctx, sheet.sheetId, outcomes);
}
