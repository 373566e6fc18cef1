/**
 * An import stopped for every row of a connection (a refused token: no row can go on), recorded
 * in Redis so that every worker of every host holds back, and lifted once the token is taken.
 */
import type { Context } from '../context.js';

/** Pauses the rows queue for every worker and records why. */
export async function stopImport(ctx: Context, reason: string): Promise<void> {
  await ctx.redis.set(ctx.keys.fatal(ctx.connection.id), reason);
  await ctx.queues.rows.pause();
  ctx.logger.error({ reason }, 'import stopped');
}

/** Clears a recorded stop and resumes the rows queue (the token was fixed). */
export async function resumeImport(ctx: Context): Promise<void> {
  await ctx.redis.del(ctx.keys.fatal(ctx.connection.id));
  await ctx.queues.rows.resume();
}

/** Why the import stopped for every row, if it did. */
export async function importStopped(ctx: Context): Promise<string | undefined> {
  return (await ctx.redis.get(ctx.keys.fatal(ctx.connection.id))) ?? undefined;
}
