/**
 * An import stopped for every row of a connection (a refused token: no row can go on), recorded
 * in Redis so that every worker of every host holds back, and lifted once the token is taken.
 * Recorded with what it says in English and its parts, so that whoever reads it (an `import` in
 * Dutch, a `watch` in French) says it in their own language.
 */
import type { Context } from '../context.js';
import type { Words } from '../language/words.js';

/** Why an import stopped: in English, and, when it is the API's, its kind and the API's words. */
export interface ImportStop {
  reason: string;
  /** A refused token, or an API not where the settings say. */
  kind?: 'auth' | 'config';
  /** The API's answer, as it said it (its status and message, or the redirect refused). */
  detail?: string;
}

/** Pauses the rows queue for every worker and records why. */
export async function stopImport(ctx: Context, stop: ImportStop): Promise<void> {
  await ctx.redis.set(ctx.keys.fatal(ctx.connection.id), JSON.stringify(stop));
  await ctx.queues.rows.pause();
  ctx.logger.error({ reason: stop.reason }, 'import stopped');
}

/** Clears a recorded stop and resumes the rows queue (the token was fixed). */
export async function resumeImport(ctx: Context): Promise<void> {
  await ctx.redis.del(ctx.keys.fatal(ctx.connection.id));
  await ctx.queues.rows.resume();
}

/** Why the import stopped for every row, if it did. */
export async function importStopped(ctx: Context): Promise<ImportStop | undefined> {
  const recorded = await ctx.redis.get(ctx.keys.fatal(ctx.connection.id));
  if (recorded === null) return undefined;
  return stopOf(recorded);
}

/** A stop as recorded; one recorded as plain text (before its parts were) is its reason. */
function stopOf(recorded: string): ImportStop {
  let json: unknown;
  try {
    json = JSON.parse(recorded);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { reason: recorded };
  }
  if (typeof json !== 'object' || json === null) return { reason: recorded };
  const { reason, kind, detail } = json as Record<string, unknown>;
  if (typeof reason !== 'string') return { reason: recorded };
  return {
    reason,
    ...((kind === 'auth' || kind === 'config') && { kind }),
    ...(typeof detail === 'string' && { detail }),
  };
}

/** The stop in `words`' language: English as recorded; another from the catalogue, if it can. */
export function stopSaid(stop: ImportStop, words: Pick<Words, 'language' | 't'>): string {
  if (words.language === 'en' || stop.kind === undefined || stop.detail === undefined)
    return stop.reason;
  return words.t(`cli.stop.reason.${stop.kind}`, { detail: stop.detail });
}
