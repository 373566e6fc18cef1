/** How `import` hands its sheets over: submitted to the queues, then followed through the store. */
import type { Context } from '../../context.js';
import { submitSheet } from '../../intake/submit.js';
import type { Mapping } from '../../orders/mapping.js';
import { importStopped } from '../../rows/stop-import.js';
import { sheetProgress } from '../../store/progress.js';
import type { Importer } from '../../app/importer.js';
import { shortPath } from '../setup.js';
import { unlessRedisGone, type Watched } from './wait-for-sheets.js';

/** Queues each sheet (or finds it queued before) with its mapping; their sheet ids, in order. */
export async function queueSheets(
  importer: Importer,
  sheets: ReadonlyArray<{ path: string; mapping: Mapping | undefined }>,
  opts: { allowDuplicates?: boolean; redisWaitS: number },
  announce: (line: string) => void,
  cwd: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (const { path, mapping } of sheets) {
    const queued = submitSheet(importer.ctx, path, {
      allowDuplicates: opts.allowDuplicates ?? false,
      ...(mapping && { mapping }),
    });
    // Still being written: the user's to wait for, said in one line.
    const { sheetId, resumed, awaits } = await unlessRedisGone(queued, importer.ctx.outages.redis, {
      redisWaitS: opts.redisWaitS,
      redisUrl: importer.redisUrl,
    });
    const what = `${resumed ? 'Resuming' : 'Queued'} ${shortPath(path, cwd)} as sheet ${sheetId}`;
    if (awaits === undefined) announce(`${what}.`);
    else {
      const folder = `data folder ${awaits.dataDir ?? '(not recorded)'} (installation ${awaits.installation})`;
      announce(
        `${what}: the same content is being imported by sheet ${awaits.sheetId} of ${folder}; this sheet waits until that import ends, for that folder's workers, then reports its rows as duplicate.`,
      );
    }
    ids.push(sheetId);
  }
  return ids;
}

/** The sheets of this process's context, as waitForSheets follows them. */
export function watchedSheets(ctx: Context): Watched {
  return {
    progress: (id) => sheetProgress(ctx.store, id),
    fatal: () => importStopped(ctx),
    redisOutage: ctx.outages.redis,
  };
}
