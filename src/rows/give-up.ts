/**
 * When BullMQ will not run a job again (its attempts spent on an unexpected error, stalled too
 * often, or a sheet that stopped being readable half-way), its rows still end in a status and its
 * sheet still gets its report. `giveUpJob` is the one way in, from the row processor, the
 * workers' `failed` events and the reconciler; every call is idempotent (a row keeps its first
 * result), so a job settled twice (its process died before the job was removed) is harmless.
 */
import type { Context } from '../context.js';
import type { RowOutcome } from '../glossary.js';
import { isOwnSheet } from '../store/sheet-home.js';
import { closeSheetEarly, recordOutcome } from './outcome.js';
import { rowJobSchema } from './row-data.js';
import { rowRecord } from './row-record.js';
import { sentAtText } from './row-run.js';

/** A job BullMQ gave up on, as its queue holds it. */
export interface GivenUpJob {
  data: unknown;
  attemptsStarted: number;
}

/**
 * Ends a given-up job of the rows or sheets queue: its row gets a status, its sheet closes early.
 * True when the job is settled, now or before (its row final, its sheet's rows all counted): it
 * has nothing left to do here. False for a job not this connection's or not this installation's
 * to settle (docs/design.md "One installation, one namespace": a worker of another data folder on
 * the same Redis and queue may be the one BullMQ tells), or unreadable.
 */
export async function giveUpJob(
  ctx: Context,
  queue: 'rows' | 'sheets',
  job: GivenUpJob,
  reason: string,
): Promise<boolean> {
  const sheetId = (job.data as { sheetId?: unknown } | undefined)?.sheetId;
  if (typeof sheetId !== 'string' || !(await isOwnSheet(ctx, sheetId))) return false;
  if (queue === 'rows') return giveUpRow(ctx, job.data, job.attemptsStarted, reason);
  await closeSheetEarly(ctx, sheetId, ctx.words.t('rows.outcome.sheetJobGaveUp', { reason }));
  const sheet = await ctx.store.get(sheetId);
  return sheet?.connectionId === ctx.connection.id && sheet.total !== undefined;
}

/** `needs-review` when its create may have been sent, else `failed` with what is known. */
async function giveUpRow(
  ctx: Context,
  data: unknown,
  attempts: number,
  reason: string,
): Promise<boolean> {
  const parsed = rowJobSchema.safeParse(data);
  if (!parsed.success) return false;
  const { sheetId, row, attachments, key, line, reference } = parsed.data;
  if (parsed.data.connectionId !== ctx.connection.id) return false;
  if (await ctx.store.isFinal(sheetId, row)) return true;
  const record = rowRecord(parsed.data, await ctx.progress.read({ sheetId, row }));
  const order = record.kind === 'order' ? record : undefined;
  const unknown = record.kind === 'sent';
  const sentAt = record.kind === 'sent' ? record.sentAt : undefined;
  // Its ledger claim must not hold up later rows with the same key forever.
  if (key !== null && order === undefined) {
    if (unknown) await ctx.ledger.markUnknown(key, { sheetId, row });
    else await ctx.ledger.release(key, { sheetId, row });
  }
  const where = { line, ...(reference !== undefined && { reference }), attempts };
  const outcome: RowOutcome = unknown
    ? {
        ...where,
        status: 'needs-review',
        error: ctx.words.t('rows.outcome.gaveUpAfterSending', {
          reason,
          sentAt: sentAtText(ctx.words, sentAt) ?? 'none',
        }),
      }
    : {
        ...where,
        status: 'failed',
        ...(order !== undefined && {
          orderId: order.orderId,
          inspectionIds: order.inspectionIds,
          fileIds: order.fileIds,
          missingFiles: attachments.filter((_, k) => order.fileIds[k] === null).map((a) => a.path),
        }),
        error: ctx.words.t('rows.outcome.gaveUp', { reason }),
      };
  await recordOutcome(ctx, sheetId, row, outcome);
  return true;
}
