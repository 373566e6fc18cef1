import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';

import { ConfigError, loadSettings } from '../settings/load.js';
import { CatalogueError, loadCatalogue } from '../orders/catalogue.js';
import { type ColumnMapping, loadMapping, MappingError } from '../orders/columns.js';
import { SheetError } from '../sheets/errors.js';
import { describeSheet, type Problem, readSheet } from '../sheets/read-sheet.js';
import type { SheetInfo } from '../sheets/types.js';
import { CliError } from './errors.js';
import type { CommandIo } from './io.js';
import { paint } from './paint.js';
import { Progress } from './progress.js';
import { terminalText as shown } from './terminal-text.js';

export interface ValidateCommandOptions {
  mapping?: string;
  json?: boolean;
  config?: string;
  products?: string;
  maxAttachmentMb?: string;
}

/** What `validate --json` prints per sheet. */
export interface ValidateSummary {
  sheet: string;
  sha256: string | null;
  format: SheetInfo['format'] | null;
  encoding: SheetInfo['encoding'] | null;
  delimiter: string | null;
  total: number;
  valid: number;
  invalid: number;
  warnings: string[];
  problems: Problem[];
  /** Problems beyond the first MAX_LISTED, counted but not listed. */
  problemsOmitted: number;
  /** Why the sheet could not be read at all. */
  error: string | null;
}

/** Enough to fix a sheet by; a sheet with more problems than this has a systematic one. */
const MAX_LISTED = 10_000;

/** Dry run: parse, map, validate and check attachments, without any API call. */
export async function validateCommand(
  sheets: readonly string[],
  opts: ValidateCommandOptions,
  io: CommandIo,
): Promise<number> {
  const { catalogue, mapping, maxAttachmentBytes } = await prepare(opts, io);
  const progress = new Progress(io.stderr);
  const stream = opts.json ? io.stderr : io.stdout;
  const human = {
    write: (text: string) => {
      progress.clear();
      stream.write(text);
    },
  };
  const out = paint(stream, io.env);
  const summaries: ValidateSummary[] = [];
  let fatal = false;

  for (const sheet of sheets) {
    const path = resolve(io.cwd, sheet);
    const rel = relative(io.cwd, path);
    const shownName = shown(rel === '' || rel.startsWith('..') ? path : rel);
    const summary: ValidateSummary = {
      sheet: path,
      sha256: null,
      format: null,
      encoding: null,
      delimiter: null,
      total: 0,
      valid: 0,
      invalid: 0,
      warnings: [],
      problems: [],
      problemsOmitted: 0,
      error: null,
    };
    summaries.push(summary);
    const missing = await notAFile(path);
    if (missing) {
      fatal = true;
      summary.error = missing;
      human.write(
        `${out.bold(shownName)}\n  ${out.red(`cannot be validated: ${shown(missing)}`)}\n`,
      );
      continue;
    }
    try {
      const opened = await readSheet(path, { catalogue, mapping, maxAttachmentBytes });
      Object.assign(summary, {
        sha256: opened.info.sha256,
        format: opened.info.format,
        encoding: opened.info.encoding,
        delimiter: opened.info.delimiter ?? null,
      });
      human.write(`${out.bold(shownName)}  ${out.dim(`(${describeSheet(opened.info)})`)}\n`);
      for await (const batch of opened.batches) {
        progress.update(`  ${shownName}: ${summary.total.toLocaleString('en')} rows checked…`);
        for (const result of batch) {
          summary.total += 1;
          if (result.ok) {
            summary.valid += 1;
            continue;
          }
          summary.invalid += 1;
          const where =
            result.line === null ? `row ${result.row}` : `row ${result.row} (line ${result.line})`;
          human.write(
            `  ${out.red(where)}${result.reference ? out.dim(`  reference ${shown(result.reference)}`) : ''}\n`,
          );
          for (const problem of result.problems) {
            human.write(
              `    ${problem.column ? `${out.bold(shown(problem.column))}: ` : ''}${shown(problem.message)}\n`,
            );
            if (summary.problems.length < MAX_LISTED) summary.problems.push(problem);
            else summary.problemsOmitted += 1;
          }
        }
      }
      summary.warnings = opened.warnings;
      for (const warning of opened.warnings)
        human.write(`  ${out.yellow(`warning: ${shown(warning)}`)}\n`);
      const counts = `${summary.total} row${summary.total === 1 ? '' : 's'}: ${summary.valid} valid, ${summary.invalid} invalid`;
      human.write(`  ${summary.invalid === 0 ? out.green(counts) : out.red(counts)}\n`);
    } catch (error) {
      if (!(error instanceof SheetError)) throw error;
      summary.error = error.message;
      human.write(
        `${out.bold(shownName)}\n  ${out.red(`cannot be read: ${shown(error.message)}`)}\n`,
      );
    }
  }
  if (opts.json) io.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  if (fatal) return 1;
  return summaries.some((s) => s.invalid > 0 || s.error !== null) ? 2 : 0;
}

async function prepare(
  opts: ValidateCommandOptions,
  io: CommandIo,
): Promise<{
  catalogue: Awaited<ReturnType<typeof loadCatalogue>>;
  mapping?: ColumnMapping;
  maxAttachmentBytes: number;
}> {
  try {
    const settings = await loadSettings({
      flags: { productsFile: opts.products, maxAttachmentMb: opts.maxAttachmentMb },
      env: io.env,
      ...(opts.config !== undefined && { configFile: opts.config }),
      cwd: io.cwd,
    });
    const catalogue = await loadCatalogue(settings.productsFile);
    const mapping =
      opts.mapping === undefined ? undefined : await loadMapping(resolve(io.cwd, opts.mapping));
    return {
      catalogue,
      ...(mapping && { mapping }),
      maxAttachmentBytes: Math.floor(settings.maxAttachmentMb * 1024 * 1024),
    };
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof CatalogueError ||
      error instanceof MappingError
    ) {
      throw new CliError(error.message, 1, { cause: error });
    }
    throw error;
  }
}

async function notAFile(path: string): Promise<string | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? null : `${path} is not a file.`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `${path} does not exist.`
      : `${path} cannot be opened (${code ?? 'error'}).`;
  }
}
