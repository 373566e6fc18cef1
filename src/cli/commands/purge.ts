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
  const before = dateOf(opts.before, Date.now());
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

/** `2025-01-31`, `2025-01-31T10:00[:00[.000]]`, with `Z` or `+01:00` or, without one, in UTC. */
const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * `2025-01-31` (midnight UTC) or an ISO time (UTC when it names no zone, as the day is, whatever
 * the machine's zone); a day or time no calendar has (`2026-02-30`, `24:00`), anything else, and a
 * date after `now` (a typo that would remove every sheet reported so far) are said and refused.
 */
export function dateOf(text: string, now: number): number {
  const at = parsedDate(text);
  if (at === undefined)
    throw new UserError(
      'purge.bad-date',
      `order-importer purge --before ${text}: not a date (write it as 2025-01-31).`,
      { values: { date: text } },
    );
  if (at > now) {
    const latest = new Date(now).toISOString().slice(0, 16);
    throw new UserError(
      'purge.bad-date',
      `order-importer purge --before ${text}: after now, so every sheet reported so far would be removed; give a date up to now (${latest}Z at the latest).`,
      { variant: 'future', values: { date: text, now: `${latest}Z` } },
    );
  }
  return at;
}

function parsedDate(text: string): number | undefined {
  const m = DATE.exec(text);
  if (m === null) return undefined;
  // An optional group left out is undefined, whatever RegExpExecArray's type says.
  const parts: Array<string | undefined> = m.slice(1, 7);
  const [y, mo, d, h = 0, mi = 0, s = 0] = parts.map((part) => Number(part ?? 0));
  const thousandths = Number((m[7] ?? '').padEnd(3, '0'));
  const utc = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s, thousandths));
  // Date.UTC rolls 30 February over into March: only a day and time that exist come back as given.
  const same =
    utc.getUTCFullYear() === y &&
    utc.getUTCMonth() === (mo ?? 1) - 1 &&
    utc.getUTCDate() === d &&
    utc.getUTCHours() === h &&
    utc.getUTCMinutes() === mi &&
    utc.getUTCSeconds() === s;
  if (!same) return undefined;
  const zone = m[8];
  if (zone === undefined || zone === 'Z') return utc.getTime();
  const [zh = 0, zm = 0] = zone.slice(1).split(':').map(Number);
  if (zh > 14 || zm > 59) return undefined;
  return utc.getTime() - (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm) * 60_000;
}
