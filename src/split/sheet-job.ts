/**
 * The sheet job: streams a sheet through the readers and validation, records invalid rows at
 * once and enqueues one row job per valid row (addBulk, in chunks, with deterministic ids),
 * checkpointing how far it got so that a retried sheet job neither skips nor re-adds a row.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { type Context, stopSignals } from '../context.js';
import { SheetError } from '../sheets/errors.js';
import type { RowResult } from '../sheets/read-sheet.js';
import { queueReport, rowJobId } from '../queue/queues.js';
import { closeSheetEarly } from '../rows/give-up.js';
import { duplicateOutcome, type EarlierRow, readEarlierReport } from '../report/earlier-report.js';
import { ledgerKey, type Ledger } from '../store/ledger.js';
import type { RowOutcome } from '../store/results.js';
import type { RowJobData } from '../rows/row-job.js';
import { sheetChanged } from '../store/sheet-copy.js';
import { interruptibleWait } from '../stopping.js';
import { readImported } from '../store/imported-sheet.js';
import type { SheetRecord } from '../store/sheet-store.js';

const CHUNK = 500;

/** A sheet job of another connection than the worker's: never retried, never read. */
export class ForeignSheetError extends Error {
  override name = 'ForeignSheetError';
  readonly retryable = false;
}

/** The sheet cannot go on yet: its job goes back to the queue for a while, no attempt spent. */
export class NotYetError extends Error {
  override name = 'NotYetError';
  readonly retryable = true;
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

export async function runSheetJob(ctx: Context, sheetId: string): Promise<void> {
  const { store } = ctx;
  const sheet = await store.get(sheetId);
  if (!sheet || sheet.state === 'done' || sheet.total !== undefined) return; // all rows read before
  if (sheet.connectionId !== ctx.connection.id) {
    // Not offered by its own queue: a job moved or forged in Redis. Its rows are not ours to send.
    throw new ForeignSheetError(
      `sheet ${sheetId} belongs to connection ${sheet.connectionId ?? '(none)'}, not ${ctx.connection.id}: nothing of it is sent from here.`,
    );
  }
  // Its rows are told what became of them in the earlier import, so that must be over first.
  const earlierSheet =
    sheet.duplicateOf === undefined ? undefined : await store.get(sheet.duplicateOf);
  if (earlierSheet !== undefined && earlierSheet.state !== 'done') {
    throw new NotYetError(`waits for sheet ${sheet.duplicateOf ?? ''}, the same content`, 2000);
  }
  const log = ctx.logger.child({ sheetId, sheet: sheet.name });
  await store.update(sheetId, { state: 'reading' });

  // A first pass proves the whole sheet readable before a single order is sent: a quote left
  // open at row 90,000 must not leave 89,999 orders behind a sheet that "cannot be read".
  let expected = 0;
  try {
    const first = await open(sheet, ctx);
    for await (const batch of first.batches) expected = batch.at(-1)?.row ?? expected;
    await store.update(sheetId, {
      format: first.info.format,
      encoding: first.info.encoding,
      expected,
      ...(first.info.delimiter !== undefined && { delimiter: first.info.delimiter }),
      ...(first.info.columns !== undefined && { columns: first.info.columns }),
    });
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return unreadable(sheet, error, ctx);
  }

  const earlier =
    sheet.duplicateOf === undefined ? undefined : await readEarlierReport(earlierSheet);
  let read: { rows: number; warnings: string[] };
  try {
    read = await handOn(sheet, earlier, ctx);
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return unreadable(sheet, error, ctx);
  }
  await store.update(sheetId, { warnings: read.warnings });
  log.info({ rows: read.rows }, 'sheet read');
  if (await store.setTotal(sheetId, read.rows)) await queueReport(ctx.queues, sheetId);
}

/**
 * The second pass: settles or enqueues every row after the checkpoint. Once the user's file has
 * changed, the rows left are refused instead, each saying why: the rows are read from the private
 * copy whatever happens, but a sheet saved over is one the user no longer wants imported as it
 * was, and the rows handed on before must not be joined by rows of another version.
 */
async function handOn(
  sheet: SheetRecord,
  earlier: Map<number, EarlierRow> | undefined,
  ctx: Context,
): Promise<{ rows: number; warnings: string[] }> {
  const opened = await open(sheet, ctx);
  let rows = 0;
  let handed = sheet.checkpoint;
  let changed = false;
  const same = new Set<string>();
  for await (const batch of opened.batches) {
    rows = batch.at(-1)?.row ?? rows;
    const fresh = batch.filter((result) => result.row > sheet.checkpoint);
    if (fresh.length === 0) continue;
    changed ||= await changedSinceQueued(sheet, same);
    if (changed && handed === 0) throw new SheetError(CHANGED_BEFORE_READ);
    if (changed) {
      // The checkpoint stays at the last row handed on: a retry refuses these again, harmlessly.
      await refuse(sheet, fresh, ctx);
      continue;
    }
    await settle(sheet, fresh, earlier, ctx);
    await ctx.store.update(sheet.sheetId, { checkpoint: rows });
    handed = rows;
    await backpressure(ctx);
  }
  const warnings = [...opened.warnings];
  if (changed) {
    warnings.push(
      `the sheet changed while it was imported (it was saved over, or removed): rows ${handed + 1} to ${rows} were not imported, so that no orders come from two versions of it; rows 1 to ${handed}, queued before the change, are of the version queued (sha256 ${sheet.sha256.slice(0, 12)}…). Queue the sheet again to import its new content.`,
    );
  }
  return { rows, warnings };
}

const CHANGED_BEFORE_READ =
  'the sheet changed after it was queued: queue it again to import its new content.';

const ROW_REFUSED =
  'not imported: the sheet changed while it was imported (it was saved over, or removed), and its rows not yet queued then were refused so that no orders come from two versions of it. Queue the sheet again to import its new content.';

/**
 * Opens the sheet's private copy. Refused as a whole when the user's file changed before any of
 * its rows was handed on, or when the copy's bytes are not the ones queued (cut short by a crash,
 * or a sheet queued before copies were made that changed since).
 */
async function open(sheet: SheetRecord, ctx: Context) {
  if (sheet.checkpoint === 0 && (await changedSinceQueued(sheet))) {
    throw new SheetError(CHANGED_BEFORE_READ);
  }
  const opened = await readImported(sheet, ctx);
  if (opened === undefined) throw new SheetError(CHANGED_BEFORE_READ);
  return opened;
}

/** Whether the user's file is no longer the version queued (saved over, or removed). */
async function changedSinceQueued(sheet: SheetRecord, same?: Set<string>): Promise<boolean> {
  return (
    sheet.origin !== undefined && (await sheetChanged(sheet.path, sheet.origin, sheet.sha256, same))
  );
}

/** Rows of a sheet that changed while it was imported: each `failed`, with why. */
async function refuse(
  sheet: SheetRecord,
  batch: readonly RowResult[],
  ctx: Context,
): Promise<void> {
  const outcomes = batch.map((result): [number, RowOutcome] => [
    result.row,
    {
      line: result.line,
      ...(result.reference !== undefined && { reference: result.reference }),
      status: 'failed',
      attempts: 0,
      error: ROW_REFUSED,
    },
  ]);
  await ctx.store.finalize(sheet.sheetId, outcomes);
}

/** Records invalid rows and enqueues valid ones (or, for a sheet imported before, settles all). */
async function settle(
  sheet: SheetRecord,
  batch: readonly RowResult[],
  earlier: Map<number, EarlierRow> | undefined,
  ctx: Context,
): Promise<void> {
  const outcomes: Array<[number, RowOutcome]> = [];
  const jobs: Array<{ name: string; data: RowJobData; opts: { jobId: string } }> = [];
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
      const outcome = duplicateOutcome(sheet.duplicateOf, row);
      outcomes.push([result.row, { ...where, ...outcome }]);
      continue;
    }
    if (!result.ok) {
      const error = result.problems.map((p) =>
        p.column ? `${p.column}: ${p.message}` : p.message,
      );
      outcomes.push([
        result.row,
        { ...where, status: 'invalid', attempts: 0, error: error.join(' | ') },
      ]);
      continue;
    }
    jobs.push({
      name: 'row',
      data: {
        connectionId: ctx.connection.id,
        sheetId: sheet.sheetId,
        row: result.row,
        ...where,
        key,
        order: result.order,
        attachments: result.attachments,
        ...(result.orderId !== undefined && { existingOrderId: result.orderId }),
      },
      opts: { jobId: rowJobId(sheet.sheetId, result.row) },
    });
  }
  await ctx.store.finalize(sheet.sheetId, outcomes);
  for (let i = 0; i < jobs.length; i += CHUNK)
    await ctx.queues.rows.addBulk(jobs.slice(i, i + CHUNK));
}

/** What the ledger knows of a row when the earlier report is gone. */
async function fromLedger(key: string | null, ledger: Ledger): Promise<EarlierRow | undefined> {
  const entry = key === null ? undefined : await ledger.lookup(key);
  return entry?.state === 'created' && entry.orderId !== undefined
    ? { status: 'created', orderId: entry.orderId }
    : undefined;
}

async function backpressure(ctx: Context): Promise<void> {
  const highWater = ctx.settings.rowsHighWater ?? 10_000;
  while ((await ctx.queues.rows.getWaitingCount()) > highWater) {
    // Rows drain only while workers run: a stopping process hands the sheet back instead.
    await interruptibleWait(
      (signal) => sleep(250, undefined, signal && { signal }),
      stopSignals(ctx),
    );
  }
}

/**
 * A sheet that cannot be read: with no row handed on yet, no rows, one error and a report that
 * says so; after some were (the file changed half-way), those are reported as they end.
 */
async function unreadable(sheet: SheetRecord, error: SheetError, ctx: Context): Promise<void> {
  ctx.logger.warn({ sheetId: sheet.sheetId, err: error }, 'sheet cannot be read');
  const current = await ctx.store.get(sheet.sheetId);
  if ((current?.checkpoint ?? 0) > 0) return closeSheetEarly(ctx, sheet.sheetId, error.message);
  await ctx.store.update(sheet.sheetId, { error: error.message });
  await ctx.store.forgetSha(`${ctx.connection.id}|${sheet.sha256}`, sheet.sheetId);
  if (await ctx.store.setTotal(sheet.sheetId, 0)) await queueReport(ctx.queues, sheet.sheetId);
}
