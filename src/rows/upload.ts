/**
 * Step 4, upload: each attachment once. A file with an id is never sent again; one sent with no
 * answer kept (a stop mid-upload, an unclear answer) is sent again and noted as resent — a file
 * twice is a lesser harm than a file missing.
 */
import { basename } from 'node:path';

import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import { refusalText } from '../orders/attachments.js';
import { AttachmentRefused } from '../orders/open-attachment.js';
import { openAttachment } from './attachment-source.js';
import { interruptionFor } from './interruption.js';
import { apiTurn } from './api-turn.js';
import type { RowRun } from './row-run.js';

/** Where the uploads ended: each file's id (null when it is not on the order), and why not. */
export interface Uploads {
  fileIds: Array<number | null>;
  refused: string[];
}

export async function uploadFiles(ctx: Context, run: RowRun, orderId: number): Promise<Uploads> {
  const uploads: Uploads = {
    fileIds: run.data.attachments.map((_, k) => run.state.fileIds[k] ?? null),
    refused: [],
  };
  for (const [k, { path }] of run.data.attachments.entries()) {
    if (uploads.fileIds[k] !== null) continue;
    try {
      uploads.fileIds[k] = await uploadOne(ctx, run, orderId, k, path);
      const fileIds = [...uploads.fileIds];
      // The last one's id is kept by the outcome that follows; any other at once, never sent
      // again. The next file is not marked yet: it may wait for its turn (uploadOne).
      if (uploads.fileIds.indexOf(null, k + 1) < 0)
        run.state = { ...run.state, fileIds, uploading: undefined };
      else await run.keep({ ...run.state, orderId, fileIds, uploading: undefined });
    } catch (error) {
      uploads.refused.push(await uploadFailed(run, orderId, uploads, k, path, error));
    }
  }
  return uploads;
}

/**
 * Sends attachment `k` (at `path` in its sheet's folder), marked as on its way once its turn at
 * the API has come, and not before: a file marked is one that may have left, whatever the pace
 * said, so an attempt that dies while it waits leaves no mark behind.
 */
async function uploadOne(
  ctx: Context,
  run: RowRun,
  orderId: number,
  k: number,
  path: string,
): Promise<number> {
  await apiTurn(ctx);
  const { state } = run;
  // An attempt that stopped while sending it left it marked: this is a second sending.
  const again = run.interrupted === k;
  run.interrupted = undefined;
  const resent = again ? [...new Set([...state.resent, k])] : state.resent;
  await run.keep({ ...state, orderId, resent, uploading: k });
  return ctx.api.uploadFile(
    orderId,
    { name: basename(path), open: () => openAttachment(ctx, run.data.sheetId, path) },
    ctx.stop.now.signal,
  );
}

/**
 * Why attachment `k` is not on the order, when it is to stay so; otherwise throws for the job to
 * be retried (its file sent again then) or interrupted.
 */
async function uploadFailed(
  run: RowRun,
  orderId: number,
  uploads: Uploads,
  k: number,
  path: string,
  error: unknown,
): Promise<string> {
  const { state } = run;
  if (error instanceof AttachmentRefused) {
    // Changed since validation (a link put in its place): nothing was sent, nor will be. Said
    // as validation would have said it, in the office's words.
    await run.keep({ ...state, orderId, uploading: undefined });
    return withoutFullStop(refusalText(run.words, error));
  }
  if (!(error instanceof ApiError)) throw error;
  if (error.kind === 'permanent' || error.kind === 'retryable') {
    await run.keep({ ...state, orderId, uploading: undefined }); // not stored: sending it again is no repeat
  }
  if (error.kind === 'permanent') return `${path}: ${withoutFullStop(error.message)}`;
  if (error.kind === 'ambiguous') {
    // Sent again on the next attempt: a file twice is a lesser harm than a file missing.
    const resent = [...new Set([...state.resent, k])];
    await run.keep({ ...state, orderId, fileIds: [...uploads.fileIds], resent });
  }
  if (run.lastAttempt && (error.kind === 'ambiguous' || error.kind === 'retryable')) {
    return `${path}: ${withoutFullStop(error.message)} (no more retries)`;
  }
  throw interruptionFor(error) ?? error;
}

/** A message to be quoted inside a longer sentence, which brings its own full stop. */
function withoutFullStop(message: string): string {
  return message.replace(/[.\s]+$/, '');
}
