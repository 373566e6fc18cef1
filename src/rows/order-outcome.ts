/**
 * Step 5, outcome: the order made, with every file (`created`, noting files possibly attached
 * twice) or without some (`failed`, to be dropped back from failed/ for the same order).
 */
import type { RowRun, StepOutcome } from './row-run.js';
import type { Uploads } from './upload.js';

export function orderOutcome(
  run: Pick<RowRun, 'data' | 'state' | 'words'>,
  orderId: number,
  uploads: Uploads,
): StepOutcome {
  const { attachments } = run.data;
  const { fileIds, refused } = uploads;
  const missing = attachments.filter((_, k) => fileIds[k] === null).map((a) => a.path);
  const resent = run.state.resent
    .filter((k) => fileIds[k] !== null)
    .map((k) => attachments[k]?.path)
    .filter((p): p is string => p !== undefined);
  const done = { orderId, inspectionIds: run.state.inspectionIds ?? [], fileIds };
  if (missing.length > 0) {
    return {
      status: 'failed',
      ...done,
      missingFiles: missing,
      error: run.words.t('rows.outcome.filesMissing', {
        ...{ orderId: String(orderId), count: missing.length, refused: refused.join('; ') },
      }),
    };
  }
  return {
    status: 'created',
    ...done,
    ...(resent.length > 0 && {
      error: run.words.t('rows.outcome.resent', { files: resent.join(', ') }),
    }),
  };
}
