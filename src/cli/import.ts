import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import { ConfigError, loadSettings, type Settings } from '../settings/load.js';
import { createLogger } from '../logger.js';
import type { Summary } from '../report/report.js';
import type { SheetProgress } from '../queue/runtime.js';
import { SheetUnsettledError } from '../store/sheet-copy.js';
import { isRedisUnreachable } from '../redis/connect.js';
import { redactUrl } from '../redis/url.js';
import { type ColumnMapping, loadMapping, MappingError } from '../orders/columns.js';
import { CliError } from './errors.js';
import { ImportProgress } from './import-progress.js';
import { openImporter } from './importer.js';
import type { CommandIo } from './io.js';
import { terminalText } from './terminal-text.js';

/** The setting flags that `import` and `worker` share. */
export interface SettingCommandOptions {
  config?: string;
  concurrency?: string;
  products?: string;
  maxAttachmentMb?: string;
  dataDir?: string;
  reportsDir?: string;
  apiWaitS?: string;
  redisWaitS?: string;
}

export interface ImportCommandOptions extends SettingCommandOptions {
  workers?: boolean;
  allowDuplicates?: boolean;
  mapping?: string;
  json?: boolean;
}

export function settingFlags(
  opts: SettingCommandOptions,
): Parameters<typeof loadSettings>[0]['flags'] {
  return {
    concurrency: opts.concurrency,
    productsFile: opts.products,
    maxAttachmentMb: opts.maxAttachmentMb,
    dataDir: opts.dataDir,
    reportsDir: opts.reportsDir,
    apiWaitS: opts.apiWaitS,
    redisWaitS: opts.redisWaitS,
  };
}

export async function loadCommandSettings(
  io: CommandIo,
  configFile: string | undefined,
  flags: Parameters<typeof loadSettings>[0]['flags'],
): Promise<Settings> {
  try {
    return await loadSettings({
      flags,
      env: io.env,
      cwd: io.cwd,
      ...(configFile !== undefined && { configFile }),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 1, { cause: error });
    throw error;
  }
}

/**
 * The logger of a command a person watches: on a terminal, unless LOG_LEVEL is set, only
 * warnings and errors, since the command's own lines say what goes on and JSON would bury them;
 * and not those the command has just said in plain words (an outage).
 */
export function commandLogger(io: CommandIo, settings: Settings): Logger {
  const quiet = (io.stderr as { isTTY?: boolean }).isTTY === true && io.env.LOG_LEVEL === undefined;
  return createLogger({ level: quiet ? 'warn' : settings.logLevel, skipTold: quiet });
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
  const settings = await loadCommandSettings(io, opts.config, settingFlags(opts));
  const mapping = await readMapping(opts.mapping, io.cwd);
  const paths = sheets.map((s) => resolve(io.cwd, s));
  for (const path of paths) await mustBeFile(path);

  const human = opts.json ? io.stderr : io.stdout;
  // Lines said while the progress is drawn (an outage) go above it, not through it; they quote
  // file names and messages that may hold a sheet's control characters.
  const progress = new ImportProgress(io.stderr);
  const say = (line: string) => {
    progress.say(terminalText(line));
  };
  const logger = commandLogger(io, settings);
  const importer = await openImporter({ settings, logger, say, workers: opts.workers !== false });
  const stop = { interrupted: false };
  try {
    const ids: string[] = [];
    for (const path of paths) {
      const { sheetId, resumed } = await unlessRedisGone(
        importer.pipeline
          .enqueue(path, {
            allowDuplicates: opts.allowDuplicates ?? false,
            ...(mapping && { mapping }),
          })
          .catch((error: unknown) => {
            // Still being written: the user's to wait for, said in one line.
            if (error instanceof SheetUnsettledError)
              throw new CliError(error.message, 1, { cause: error });
            throw error;
          }),
        importer.pipeline,
        { redisWaitS: settings.redisWaitS, redisUrl: importer.redisUrl },
      );
      say(`${resumed ? 'Resuming' : 'Queued'} ${shortPath(path, io.cwd)} as sheet ${sheetId}.`);
      ids.push(sheetId);
    }
    if (opts.workers === false) {
      const { id, apiBaseUrl } = importer.connection;
      say(
        `No workers in this process (--no-workers): waiting for \`order-importer worker\` processes with the same API_BASE_URL and token (connection ${id}, ${apiBaseUrl}); workers of other connections leave these rows alone.`,
      );
    }
    void io.stopSignal().then(() => {
      stop.interrupted = true;
    });
    const outcome = await waitForSheets(ids, importer.pipeline, progress, {
      stopped: () => stop.interrupted,
      redisWaitS: settings.redisWaitS,
      redisUrl: importer.redisUrl,
    });
    if (outcome.fatal !== undefined) throw new CliError(`the import stopped: ${outcome.fatal}`);
    if (stop.interrupted) {
      say('Interrupted: rows in flight finish; run the same import again to resume the rest.');
      return 1;
    }
    const summaries = await Promise.all(outcome.sheets.map((s) => readSummary(s)));
    printSummaries(summaries, human, io.cwd);
    if (opts.json) io.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
    return summaries.every(
      (s) => s.error === undefined && s.invalid + s.failed + s.needsReview === 0,
    )
      ? 0
      : 2;
  } finally {
    await importer.close({ graceMs: stop.interrupted ? 30_000 : 5_000 });
  }
}

/** What waitForSheets needs of the pipeline. */
interface Watched {
  progress(id: string): Promise<SheetProgress | undefined>;
  fatal(): Promise<string | undefined>;
  redisOutage: { readonly since: number | undefined; failed(reason: unknown): void };
}

export interface WaitForSheetsOptions {
  stopped: () => boolean;
  /** REDIS_WAIT_S: how long Redis may be away before the import stops. */
  redisWaitS: number;
  /** For the message (its password is never shown). */
  redisUrl: string;
  now?: () => number;
  pollMs?: number;
}

type Polled =
  | { kind: 'answer'; sheets: SheetProgress[]; fatal?: string; missing?: string }
  | { kind: 'away'; error: unknown }
  | { kind: 'broken'; error: unknown };

/**
 * Follows the sheets until all are done, the import is stopped, or it cannot go on. While Redis
 * is away a look at the sheets waits for it; that wait never keeps a stop (or REDIS_WAIT_S) from
 * being noticed.
 */
export async function waitForSheets(
  ids: readonly string[],
  pipeline: Watched,
  progress: Pick<ImportProgress, 'update'>,
  options: WaitForSheetsOptions,
): Promise<{ sheets: SheetProgress[]; fatal?: string }> {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 300;
  let sheets: SheetProgress[] = [];
  let asking: Promise<Polled> | undefined;
  for (;;) {
    asking ??= look(ids, pipeline);
    const polled = await Promise.race([asking, sleep(pollMs).then(() => undefined)]);
    if (polled !== undefined) {
      asking = undefined;
      if (polled.kind === 'broken') throw polled.error;
      if (polled.kind === 'away') pipeline.redisOutage.failed(polled.error);
      else {
        if (polled.missing !== undefined) throw forgottenError(polled.missing, options);
        sheets = polled.sheets;
        progress.update(sheets);
        if (polled.fatal !== undefined) return { sheets, fatal: polled.fatal };
        if (sheets.every((s) => s.state === 'done')) return { sheets };
      }
    }
    if (options.stopped()) return { sheets };
    if (redisGone(pipeline, options, now)) throw redisGoneError(options);
    if (polled !== undefined) await sleep(pollMs);
  }
}

type RedisWait = Pick<WaitForSheetsOptions, 'redisWaitS' | 'redisUrl' | 'now' | 'pollMs'>;

/**
 * `work`, unless Redis stays away for REDIS_WAIT_S before it is done: the commands of a client
 * that waits out a Redis restart would otherwise wait for good.
 */
export async function unlessRedisGone<T>(
  work: Promise<T>,
  pipeline: Pick<Watched, 'redisOutage'>,
  options: RedisWait,
): Promise<T> {
  const now = options.now ?? Date.now;
  const done = new AbortController();
  const watchdog = (async (): Promise<never> => {
    for (;;) {
      await sleep(options.pollMs ?? 300, undefined, { signal: done.signal });
      if (redisGone(pipeline, options, now)) throw redisGoneError(options);
    }
  })();
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    done.abort(); // the watchdog's own rejection is handled by the race above
  }
}

function redisGone(
  pipeline: Pick<Watched, 'redisOutage'>,
  options: RedisWait,
  now: () => number,
): boolean {
  const since = pipeline.redisOutage.since;
  return since !== undefined && now() - since >= options.redisWaitS * 1000;
}

/** Redis answers but no longer has a sheet it was given: nothing more will come of it. */
function forgottenError(sheetId: string, options: RedisWait): CliError {
  return new CliError(
    `Redis no longer knows sheet ${sheetId} (${redactUrl(options.redisUrl)}): it came back without its data (keep its AOF on), or the keys were removed. The import stops. Orders it created before are at the API but no longer in the duplicates ledger: check them before importing the sheet again.`,
  );
}

function redisGoneError(options: RedisWait): CliError {
  return new CliError(
    `Redis at ${redactUrl(options.redisUrl)} has not answered for ${options.redisWaitS} s (REDIS_WAIT_S): the import stops. Once Redis is back, run the same import again: it resumes where it stopped.`,
  );
}

/** One look at the sheets; it never rejects, so that a look left behind cannot go unhandled. */
async function look(ids: readonly string[], pipeline: Watched): Promise<Polled> {
  try {
    const found = await Promise.all(ids.map((id) => pipeline.progress(id)));
    const sheets = found.filter((s): s is SheetProgress => s !== undefined);
    const missing = ids.find((_, i) => found[i] === undefined);
    const fatal = await pipeline.fatal();
    return {
      kind: 'answer',
      sheets,
      ...(fatal !== undefined && { fatal }),
      ...(missing !== undefined && { missing }),
    };
  } catch (error) {
    return isRedisUnreachable(error) ? { kind: 'away', error } : { kind: 'broken', error };
  }
}

async function readSummary(sheet: SheetProgress): Promise<Summary> {
  const text = await readFile(join(sheet.reportDir ?? '', 'summary.json'), 'utf8');
  return JSON.parse(text) as Summary;
}

function printSummaries(
  summaries: readonly Summary[],
  out: NodeJS.WritableStream,
  cwd: string,
): void {
  const header = ['sheet', 'rows', 'created', 'invalid', 'failed', 'needs-review', 'duplicate'];
  const shown = (path: string) => terminalText(shortPath(path, cwd));
  const rows = summaries.map((s) => [
    shown(s.sheet),
    String(s.total),
    String(s.created),
    String(s.invalid),
    String(s.failed),
    String(s.needsReview),
    String(s.duplicate),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  out.write(`\n${line(header)}\n${rows.map(line).join('\n')}\n\n`);
  for (const s of summaries) {
    if (s.error !== undefined)
      out.write(`${shown(s.sheet)}: cannot be read: ${terminalText(s.error)}\n`);
    if (s.duplicateOf !== undefined)
      out.write(
        `${shown(s.sheet)}: imported before as sheet ${s.duplicateOf}; nothing was sent again.\n`,
      );
    for (const warning of s.warnings)
      out.write(`${shown(s.sheet)}: warning: ${terminalText(warning)}\n`);
    out.write(`Report: ${shown(s.reportDir)}\n`);
  }
}

async function readMapping(
  file: string | undefined,
  cwd: string,
): Promise<ColumnMapping | undefined> {
  if (file === undefined) return undefined;
  try {
    return await loadMapping(resolve(cwd, file));
  } catch (error) {
    if (error instanceof MappingError) throw new CliError(error.message, 1, { cause: error });
    throw error;
  }
}

async function mustBeFile(path: string): Promise<void> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats?.isFile())
    throw new CliError(`${path} ${stats ? 'is not a file' : 'does not exist'}.`);
}

export function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}
