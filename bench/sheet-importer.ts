/**
 * An importer that stays open across sheets (a context with its workers, as a service runs it),
 * for measures that import one sheet after another in the same process (second-sheet.ts).
 */
import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import type { Context } from '../src/context.js';
import { submitSheet } from '../src/intake/submit.js';
import { loadCatalogue } from '../src/orders/catalogue.js';
import { defaultProductsFile } from '../src/package-root.js';
import { sheetProgress } from '../src/store/progress.js';
import { startWorkers } from '../src/workers/start.js';
import { closeContext } from '../src/workers/stop.js';
import { openBenchContext } from './importer-run.js';

export interface SheetImporter {
  ctx: Context;
  /** Imports a sheet and resolves with its rows by status once its report is written. */
  importSheet(path: string): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Opens the importer on the Redis of `REDIS_URL`, every key under `{<tag>}`. */
export async function openSheetImporter(options: {
  api: { url: string; token: string };
  tag: string;
  dir: string;
  concurrency: number;
}): Promise<SheetImporter> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: options.concurrency * 2 });
  const api = new ApiClient({
    baseUrl: options.api.url,
    token: options.api.token,
    timeoutMs: 30_000,
    dispatcher,
  });
  const ctx = await openBenchContext({
    api,
    apiUrl: options.api.url,
    token: options.api.token,
    tag: options.tag,
    dir: options.dir,
    catalogue: await loadCatalogue(defaultProductsFile()),
    concurrency: options.concurrency,
  });
  await startWorkers(ctx);
  return {
    ctx,
    importSheet: async (path) => {
      const { sheetId } = await submitSheet(ctx, path);
      for (;;) {
        const progress = await sheetProgress(ctx.store, sheetId);
        if (progress?.state === 'done') return progress.counts;
        // Seldom enough to cost the import next to nothing, on the product's CPU or on Redis's.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: async () => {
      await closeContext(ctx, { graceMs: 2000 });
      await dispatcher.close();
    },
  };
}
