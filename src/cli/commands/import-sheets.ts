/** How `import` hands its sheets over: submitted to the queues, then followed through the store. */
import type { Context } from '../../context.js';
import { discardTaken, type SheetTaken, submitTaken, takeSheet } from '../../intake/submit.js';
import type { Mapping } from '../../orders/mapping.js';
import { importStopped, stopSaid } from '../../rows/stop-import.js';
import { sheetProgress } from '../../store/progress.js';
import type { Importer } from '../../app/importer.js';
import { sheetsDirOf } from '../../app/process-parts.js';
import type { Settings } from '../../settings/load.js';
import { shortPath } from '../setup.js';
import { unlessRedisGone, type Watched } from './wait-for-sheets.js';

/** A sheet to import and its mapping. */
export interface SheetToImport {
  path: string;
  mapping: Mapping | undefined;
}

export interface SheetsTaking {
  /** Each sheet taken, in order; the first that cannot be taken stops the rest. */
  taken: Promise<Array<SheetTaken & SheetToImport>>;
  /** Removes the copies taken (the import stopped before they were queued). */
  discard(): Promise<void>;
}

/**
 * Takes the sheets (their copies, hashes and one pass each) while Redis and the API are being
 * connected to: neither needs the other, and the pass over a big sheet would otherwise hold back
 * the first order.
 */
export function takeSheets(
  sheets: readonly SheetToImport[],
  settings: Pick<Settings, 'dataDir'>,
): SheetsTaking {
  const sheetsDir = sheetsDirOf(settings);
  const done: Array<SheetTaken & SheetToImport> = [];
  const where = { sheetsDir, now: Date.now };
  const taken = (async () => {
    for (const sheet of sheets) {
      const options = sheet.mapping ? { mapping: sheet.mapping } : {};
      done.push({ ...(await takeSheet(where, sheet.path, options)), ...sheet });
    }
    return done;
  })();
  // Awaited once the importer is open; a failure meanwhile must not be an unhandled rejection.
  taken.catch(() => undefined);
  return {
    taken,
    discard: async () => {
      await taken.catch(() => undefined);
      for (const sheet of done.splice(0)) await discardTaken(sheetsDir, sheet);
    },
  };
}

/** Queues each sheet taken (or finds it queued before); their sheet ids, in order. */
export async function queueSheets(
  importer: Importer,
  sheets: ReadonlyArray<SheetTaken & SheetToImport>,
  opts: { allowDuplicates?: boolean; redisWaitS: number },
  announce: (line: string) => void,
  shown: { cwd: string; words: Context['words'] },
): Promise<string[]> {
  const { cwd, words } = shown;
  const ids: string[] = [];
  for (const taken of sheets) {
    const queued = submitTaken(importer.ctx, taken, {
      allowDuplicates: opts.allowDuplicates ?? false,
      ...(taken.mapping && { mapping: taken.mapping }),
    });
    // Still being written: the user's to wait for, said in one line.
    const { sheetId, resumed, awaits } = await unlessRedisGone(queued, importer.ctx.outages.redis, {
      redisWaitS: opts.redisWaitS,
      redisUrl: importer.redisUrl,
    });
    const what = {
      resumed: resumed ? 'yes' : 'no',
      sheet: shortPath(taken.path, cwd),
      sheetId,
    };
    if (awaits === undefined) announce(words.t('cli.import.queued', what));
    else {
      announce(
        words.t('cli.import.queued-awaits', {
          ...what,
          other: awaits.sheetId,
          dataDir: awaits.dataDir ?? '(not recorded)',
          installation: awaits.installation,
        }),
      );
    }
    ids.push(sheetId);
  }
  return ids;
}

/** The sheets of this process's context, as waitForSheets follows them. */
export function watchedSheets(ctx: Context, words: Context['words']): Watched {
  return {
    progress: (id) => sheetProgress(ctx.store, id),
    fatal: async () => {
      const stop = await importStopped(ctx);
      return stop === undefined ? undefined : stopSaid(stop, words);
    },
    redisOutage: ctx.outages.redis,
  };
}
