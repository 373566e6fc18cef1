import { type Context, stopSignals } from '../context.js';
import { interruptibleWait } from '../stopping.js';

/** Waits its turn at the API (the pace shared by every worker), or stops with the process. */
export async function apiTurn(ctx: Context): Promise<void> {
  if (ctx.pace.takeFreeTurn()) return;
  await interruptibleWait((signal) => ctx.pace.turn(signal), stopSignals(ctx));
}
