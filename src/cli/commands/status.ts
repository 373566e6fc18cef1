/**
 * `order-importer status [REPORT_DIR|SHEET_ID…] [--json]`: reads back the orders of imported
 * sheets into each report's status.csv, each sheet with its own connection's client and token
 * (a sheet of a connection not configured here is not read). Exit 0 when every order was read,
 * 2 when some order or sheet could not be, 1 when nothing can be (settings, Redis, the API).
 */
import { AbortedError } from '../../api/errors.js';
import type { SettingFlags } from '../../settings/load.js';
import { openImporter } from '../../app/importer.js';
import { openEach } from '../../app/importers.js';
import type { CommandIo } from '../io.js';
import { commandLogger, commandSettings, commandWords } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import {
  jsonOf,
  readSheet,
  type SheetOutcome,
  sheetLine,
  unreadableLines,
} from './status-lines.js';
import { chosenSheets } from './status-sheets.js';
import { tellChanges } from './status-tell.js';

export interface StatusCommandOptions {
  config?: string;
  settings?: SettingFlags;
  json?: boolean;
}

export async function statusCommand(
  targets: readonly string[],
  opts: StatusCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  const out = opts.json === true ? io.stderr : io.stdout;
  const say = (line: string) => out.write(`${terminalText(line)}\n`);
  const announce = (line: string) => io.stderr.write(`${terminalText(line)}\n`);
  const chosen = await chosenSheets(targets, settings, io.cwd, announce, words);
  if (chosen.sheets.length === 0) {
    say(words.t('cli.status.none', { days: settings.statusDays, dir: settings.reportsDir }));
    if (opts.json === true) io.stdout.write('[]\n');
    return 0;
  }
  const logger = commandLogger(io, settings);
  const importers = await openEach(settings, settings.connections, { announce, logger }, (one) =>
    openImporter({ settings, logger, announce, workers: false, ...one }),
  );
  const stop = { interrupted: false };
  void io.stopSignal().then(async () => {
    stop.interrupted = true;
    await importers.close({ force: true });
  });
  try {
    const outcomes: SheetOutcome[] = [];
    for (const sheet of chosen.sheets) {
      const outcome = await readSheet(sheet, importers.all, chosen.byDefault, io.stderr, words);
      outcomes.push(outcome);
      say(sheetLine(outcome, io.cwd, words));
      for (const line of unreadableLines(outcome, words)) say(line);
    }
    if (opts.json === true) io.stdout.write(`${JSON.stringify(outcomes.map(jsonOf), null, 2)}\n`);
    await tellChanges(outcomes, importers.all, announce, {
      words,
      stopped: () => stop.interrupted,
    });
    const clean = (o: SheetOutcome) => o.status !== undefined && o.status.unreadable === 0;
    return outcomes.every(clean) ? 0 : 2;
  } catch (error) {
    if (stop.interrupted && error instanceof AbortedError) {
      announce(words.t('cli.status.interrupted'));
      return 1;
    }
    throw error;
  } finally {
    await importers.close({ grace: 'brief' });
  }
}
