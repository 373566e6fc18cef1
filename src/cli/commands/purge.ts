/**
 * `order-importer purge --before DATE [--connection NAME] [--dry-run]`: the personal data of the
 * sheets reported before DATE removed by hand (app/retention.ts, as `watch`'s daily pass does
 * with RETENTION_DAYS), each sheet said with what went; the duplicates ledger stays.
 */
import { purgeWithSettings } from '../../app/retention.js';
import { UserError } from '../../errors.js';
import type { SettingFlags } from '../../settings/load.js';
import type { CommandIo } from '../io.js';
import { commandSettings, commandWords } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { purgedLines } from '../../app/retention-lines.js';

export interface PurgeCommandOptions {
  config?: string;
  settings?: SettingFlags;
  connection?: string;
  before: string;
  dryRun?: boolean;
}

export async function purgeCommand(opts: PurgeCommandOptions, io: CommandIo): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  const before = dateOf(opts.before);
  const say = (line: string) => io.stdout.write(`${terminalText(line)}\n`);
  const announce = (line: string) => io.stderr.write(`${terminalText(line)}\n`);
  const dryRun = opts.dryRun === true;
  const purged = await purgeWithSettings(
    settings,
    { before, connection: opts.connection, dryRun },
    announce,
    (sheet) => {
      purgedLines(sheet, dryRun, words).forEach(say);
    },
  );
  say(
    words.t('cli.purge.done', {
      dry: dryRun ? 'yes' : 'no',
      count: purged.length,
      before: words.dateTime(before),
    }),
  );
  return 0;
}

/** `2025-01-31` (midnight UTC) or an ISO time; anything else is said and refused. */
function dateOf(text: string): number {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (!Number.isFinite(at) || !/^\d{4}-\d{2}-\d{2}/.test(text))
    throw new UserError(
      'purge.bad-date',
      `order-importer purge --before ${text}: not a date (write it as 2025-01-31).`,
      {
        values: { date: text },
      },
    );
  return at;
}
