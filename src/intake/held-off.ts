/**
 * The intake holds off while Redis has lost this installation's data (docs/design.md §3, "A
 * Redis that forgot"): the rows of a sheet taken now could not be worked until `order-importer
 * ledger rebuild`, so every sheet stays in the inbox, untouched, and a rescan after the rebuild
 * takes it (watcher.ts). Said once until then.
 */
import { markerKept } from '../store/stores.js';
import type { IntakeState } from './intake-state.js';

/** Whether the intake holds off now. */
export async function heldOff(intake: IntakeState): Promise<boolean> {
  const { ctx } = intake;
  const kept = await markerKept(ctx.redis, ctx.keys, ctx.installation.id, ctx.connection.id);
  if (kept) intake.heldOff = false;
  else if (!intake.heldOff) {
    intake.heldOff = true;
    intake.logger.warn(
      { connection: ctx.connection.name },
      'Redis lost its data: the hot folder holds off, every sheet stays in the inbox until `order-importer ledger rebuild` has run',
    );
  }
  return !kept;
}
