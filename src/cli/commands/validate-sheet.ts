/** `validate` on one sheet: its lines for a person, and its summary for `--json`. */
import { stat } from 'node:fs/promises';

import { type Words, wordsFor } from '../../language/words.js';
import type { Mapping } from '../../orders/mapping.js';
import { describeSheet } from '../../sheets/describe.js';
import { SheetError, sheetText } from '../../sheets/errors.js';
import {
  type Problem,
  readSheet,
  type ReadSheetOptions,
  type RowResult,
} from '../../sheets/read-sheet.js';
import type { SheetInfo } from '../../sheets/types.js';
import { errorMessage } from '../error-line.js';
import type { Paint } from '../paint.js';
import { terminalText as shown } from '../terminal-text.js';
import { isKnown } from '../../errors.js';

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

/** How sheets are read and where their lines go. */
export interface SheetCheck {
  reading: ReadSheetOptions;
  /** The mapping of the sheet at a path (mapping-files.ts): a mistake in it is the sheet's error. */
  mappingOf: (path: string) => Promise<Mapping | undefined>;
  /** Human lines. */
  write: (text: string) => void;
  /**
   * Resolves once what was written has gone out (at once, mostly): awaited after each batch, so
   * that a sheet of a million invalid rows written to a slow reader is not held in memory.
   */
  written: () => Promise<void>;
  /** A passing "still working" note. */
  status: (text: string) => void;
  paint: Paint;
  /** The words of the person reading. @defaultValue English */
  words?: Words;
}

/** Enough to fix a sheet by; a sheet with more problems than this has a systematic one. */
const MAX_LISTED = 10_000;

/** Reads and validates the sheet at `path`, shown as `name`; `missing` when it is not a file. */
export async function validateSheet(
  path: string,
  name: string,
  check: SheetCheck,
): Promise<{ summary: ValidateSummary; missing: boolean }> {
  const { write, paint: out } = check;
  const words = check.words ?? wordsFor('en');
  const summary: ValidateSummary = {
    sheet: path,
    ...{ sha256: null, format: null, encoding: null, delimiter: null },
    ...{ total: 0, valid: 0, invalid: 0, warnings: [], problems: [], problemsOmitted: 0 },
    error: null,
  };
  const missing = await notAFile(path, words);
  if (missing) {
    summary.error = missing;
    const line = words.t('cli.validate.missing', { reason: shown(missing) });
    write(`${out.bold(name)}\n  ${out.red(line)}\n`);
    return { summary, missing: true };
  }
  try {
    const mapping = await check.mappingOf(path);
    const opened = await readSheet(path, { ...check.reading, ...(mapping && { mapping }) });
    const { info } = opened;
    summary.sha256 = info.sha256;
    summary.format = info.format;
    summary.encoding = info.encoding;
    summary.delimiter = info.delimiter ?? null;
    write(`${out.bold(name)}  ${out.dim(`(${shown(describeSheet(info, words))})`)}\n`);
    const tally = tallier(summary, out, words);
    for await (const batch of opened.batches) {
      check.status(`  ${words.t('cli.validate.checked', { name, count: summary.total })}`);
      // One write per batch: a write per invalid row is a system call per row on a terminal.
      let lines = '';
      for (const result of batch) lines += tally(result);
      if (lines !== '') write(lines);
      await check.written();
    }
    summary.warnings = opened.warnings;
    for (const warning of opened.warnings)
      write(`  ${out.yellow(words.t('cli.validate.warning', { warning: shown(warning) }))}\n`);
    const counts = words.t('cli.validate.counts', {
      total: summary.total,
      valid: summary.valid,
      invalid: summary.invalid,
    });
    write(`  ${summary.invalid === 0 ? out.green(counts) : out.red(counts)}\n`);
  } catch (error) {
    if (!(error instanceof SheetError) && !isKnown(error, 'mapping.invalid')) throw error;
    // In the person's words: a sheet's own error, or a mapping that cannot be used.
    summary.error =
      error instanceof SheetError ? sheetText(words, error) : errorMessage(error, words);
    const line = words.t('cli.validate.unreadable', { reason: shown(summary.error) });
    write(`${out.bold(name)}\n  ${out.red(line)}\n`);
  }
  return { summary, missing: false };
}

/**
 * Counts one row; returns the lines that name an invalid one with each of its problems (each
 * names its column itself, in the words the sheet was read with: read-sheet.ts).
 */
function tallier(
  summary: ValidateSummary,
  out: Paint,
  words: Words,
): (result: RowResult) => string {
  return (result) => {
    summary.total += 1;
    if (result.ok) {
      summary.valid += 1;
      return '';
    }
    summary.invalid += 1;
    const where =
      result.line === null
        ? words.t('cli.row', { row: result.row })
        : words.t('cli.row.line', { row: result.row, line: result.line });
    const reference = result.reference
      ? out.dim(`  ${words.t('cli.row.reference', { reference: shown(result.reference) })}`)
      : '';
    let lines = `  ${out.red(where)}${reference}\n`;
    for (const problem of result.problems) {
      lines += `    ${shown(problem.message)}\n`;
      if (summary.problems.length < MAX_LISTED) summary.problems.push(problem);
      else summary.problemsOmitted += 1;
    }
    return lines;
  };
}

async function notAFile(path: string, words: Words): Promise<string | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? null : words.t('cli.validate.not-a-file', { path });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? words.t('cli.validate.no-such-file', { path })
      : words.t('cli.validate.cannot-open', { path, code: code ?? 'error' });
  }
}
