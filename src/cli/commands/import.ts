import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

import type { SettingFlags } from '../../settings/load.js';
import { UserError } from '../../errors.js';
import { chosenConnection, openChosen } from '../../app/importers.js';
import type { CommandIo } from '../io.js';
import {
  commandLogger,
  commandWords,
  commandSettings,
  mappingSources,
  mappingToImport,
} from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { planningHint, printImported, readSummary } from './import-summary.js';
import { ProgressBars } from './progress-bars.js';
import { queueSheets, takeSheets, watchedSheets } from './import-sheets.js';
import { waitForNotifications, waitForSheets } from './wait-for-sheets.js';

export interface ImportCommandOptions {
  config?: string;
  settings?: SettingFlags;
  /** false: only queue the sheets and wait for `order-importer worker` processes. */
  workers?: boolean;
  allowDuplicates?: boolean;
  mapping?: string;
  /** Which of the config file's connections (needed when it has several). */
  connection?: string;
  json?: boolean;
}

/**
 * One-shot import: queue the sheets, process them (in this process unless --no-workers), show
 * progress, print a summary. Exit 0 when every row is created or duplicate, 2 when some row is
 * invalid, failed or needs review, 1 when the import cannot go on.
 */
export async function importCommand(
  sheets: readonly string[],
  opts: ImportCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  const configured = chosenConnection(settings, opts.connection);
  const mappings = await mappingSources(opts.mapping, settings, io.cwd, configured?.mapping);
  const paths = sheets.map((s) => resolve(io.cwd, s));
  for (const path of paths) await mustBeFile(path);
  // Each sheet's mapping found before anything starts: one that cannot be used stops the import.
  const mapped = [];
  for (const path of paths) mapped.push({ path, mapping: await mappingToImport(mappings, path) });

  // Lines told while the progress is drawn (an outage) go above it, not through it; they quote
  // file names and messages that may hold a sheet's control characters.
  const bars = new ProgressBars(io.stderr, Date.now, undefined, words);
  const announce = (line: string) => {
    bars.printAbove(terminalText(line));
  };
  const logger = commandLogger(io, settings);
  const workers = opts.workers !== false;
  const taking = takeSheets(mapped, settings);
  const importer = await openChosen({ settings, logger, announce, workers }, configured).catch(
    async (error: unknown) => {
      await taking.discard();
      throw error;
    },
  );
  const stop = { interrupted: false };
  try {
    const queueing = { ...opts, redisWaitS: settings.redisWaitS };
    const taken = await taking.taken.catch(async (error: unknown) => {
      await taking.discard();
      throw error;
    });
    const ids = await queueSheets(importer, taken, queueing, announce, { cwd: io.cwd, words });
    if (!workers) {
      announce(noWorkersLine(importer, settings.dataDir, configured?.name, words));
    }
    void io.stopSignal().then(() => {
      stop.interrupted = true;
    });
    const outcome = await waitForSheets(ids, watchedSheets(importer.ctx, words), bars, {
      stopped: () => stop.interrupted,
      redisWaitS: settings.redisWaitS,
      redisUrl: importer.redisUrl,
    });
    if (outcome.fatal !== undefined)
      throw new UserError('import.stopped', `the import stopped: ${outcome.fatal}`, {
        values: { reason: outcome.fatal },
      });
    if (stop.interrupted) {
      announce(words.t('cli.import.interrupted'));
      return 1;
    }
    const summaries = await Promise.all(outcome.sheets.map((s) => readSummary(s)));
    const human = opts.json ? io.stderr : io.stdout;
    await printImported(summaries, human, io, words);
    if (importer.connection.sandbox)
      human.write(planningHint(settings.embeddedSandboxPlanningS, words));
    if (opts.json) io.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
    // Delivered by this process's workers; without them, by the workers that did the import.
    if (workers)
      await waitForNotifications(importer.ctx, ids, announce, {
        stopped: () => stop.interrupted,
        words,
      });
    const clean = (s: (typeof summaries)[number]) =>
      s.error === undefined && s.invalid + s.failed + s.needsReview === 0;
    return summaries.every(clean) ? 0 : 2;
  } finally {
    await importer.close(stop.interrupted ? {} : { grace: 'brief' });
  }
}

/** Whose workers an import without its own waits for: the same connection and data folder. */
function noWorkersLine(
  importer: Awaited<ReturnType<typeof openChosen>>,
  dataDir: string,
  connection: string | undefined,
  words: ReturnType<typeof commandWords>,
): string {
  return words.t('cli.import.no-workers', {
    connection: connection ?? 'none',
    id: importer.connection.id,
    url: importer.connection.apiBaseUrl,
    dataDir,
    installation: importer.ctx.installation.id,
  });
}

async function mustBeFile(path: string): Promise<void> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats?.isFile())
    throw new UserError(
      'import.no-such-file',
      `${path} ${stats ? 'is not a file' : 'does not exist'}.`,
      { values: { path, kind: stats ? 'not_file' : 'missing' } },
    );
}
