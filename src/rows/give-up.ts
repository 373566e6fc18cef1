/**
 * When BullMQ will not run a job again (its attempts spent on an unexpected error, stalled too
 * often, or a sheet that stopped being readable half-way), its rows still end in a status and its
 * sheet still gets its report. Called from the processors, the workers' `failed` events and the
 * reconciler; every call is idempotent (a row keeps its first result).
 */
import type { Context } from '../context.js';
import { hasRowJob, queueReport } from '../queue/queues.js';
import type { RowOutcome } from '../store/results.js';
import { rowJobSchema } from './row-job.js';

/** `needs-review` when its create may have been sent, else `failed` with what is known. */
export async function settleGivenUpRow(
  ctx: Context,
  data: unknown,
  attempts: number,
  reason: string,
): Promise<void> {
  const parsed = rowJobSchema.safeParse(data);
  if (!parsed.success) return;
  const { sheetId, row, state, attachments, key, line, reference } = parsed.data;
  if (parsed.data.connectionId !== ctx.connection.id) return;
  if (await ctx.store.isFinal(sheetId, row)) return;
  const claim = await ctx.store.createOf(sheetId, row);
  const orderId = state.orderId ?? (claim.kind === 'answered' ? claim.orderId : undefined);
  const inspectionIds =
    state.inspectionIds ?? (claim.kind === 'answered' ? claim.inspectionIds : []);
  const unknown = orderId === undefined && (state.intent !== undefined || claim.kind === 'sent');
  // Its ledger claim must not hold up later rows with the same key forever.
  if (key !== null && orderId === undefined) {
    if (unknown) await ctx.ledger.markUnknown(key, { sheetId, row });
    else await ctx.ledger.release(key, { sheetId, row });
  }
  const fileIds = attachments.map((_, k) => state.fileIds[k] ?? null);
  const where = { line, ...(reference !== undefined && { reference }), attempts };
  const outcome: RowOutcome = unknown
    ? {
        ...where,
        status: 'needs-review',
        error: `the row job gave up (${reason}) after sending its create${state.intent ? ` at ${state.intent.sentAt}` : ''}: the order may or may not exist.`,
      }
    : {
        ...where,
        status: 'failed',
        ...(orderId !== undefined && {
          orderId,
          inspectionIds,
          fileIds,
          missingFiles: attachments.filter((_, k) => fileIds[k] === null).map((a) => a.path),
        }),
        error: `the row job gave up: ${reason}`,
      };
  if (await ctx.store.finalize(sheetId, [[row, outcome]])) await queueReport(ctx.queues, sheetId);
}

/**
 * A sheet that cannot be read to its end: the rows already handed to row jobs are reported as
 * they end; the others as not processed. The report then follows as usual.
 */
export async function closeSheetEarly(
  ctx: Context,
  sheetId: string,
  reason: string,
): Promise<void> {
  const sheet = await ctx.store.get(sheetId);
  if (!sheet || sheet.total !== undefined || sheet.connectionId !== ctx.connection.id) return;
  const total = Math.max(sheet.expected ?? 0, sheet.checkpoint);
  if (total === 0) {
    // Not one row was counted: an empty report would read as a sheet with nothing to do.
    await ctx.store.update(sheetId, { error: `it stopped before its rows were read: ${reason}` });
  }
  const notProcessed: Array<[number, RowOutcome]> = [];
  for (let row = sheet.checkpoint + 1; row <= total; row++) {
    if ((await ctx.store.isFinal(sheetId, row)) || (await hasRowJob(ctx.queues, sheetId, row)))
      continue;
    notProcessed.push([row, { status: 'failed', attempts: 0, error: `not processed: ${reason}` }]);
  }
  await ctx.store.finalize(sheetId, notProcessed);
  const warning = `the sheet stopped being processed after row ${sheet.checkpoint}: ${reason}`;
  await ctx.store.update(sheetId, { warnings: [...sheet.warnings, warning] });
  ctx.logger.warn({ sheetId, reason }, 'sheet closed early');
  if (await ctx.store.setTotal(sheetId, total)) await queueReport(ctx.queues, sheetId);
}
