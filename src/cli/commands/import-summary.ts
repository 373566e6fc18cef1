/** The end of an import: each sheet's summary.json, read back and shown as one table. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type Words, wordsFor } from '../../language/words.js';
import type { Summary } from '../../report/report.js';
import type { SheetProgress } from '../../store/progress.js';
import type { CommandIo } from '../io.js';
import { paint } from '../paint.js';
import { shortPath } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { printReasons } from './import-reasons.js';

export async function readSummary(sheet: SheetProgress): Promise<Summary> {
  const text = await readFile(join(sheet.reportDir ?? '', 'summary.json'), 'utf8');
  return JSON.parse(text) as Summary;
}

/** The table of the sheets, then the rows not created and why. */
export async function printImported(
  summaries: readonly Summary[],
  out: NodeJS.WritableStream,
  io: Pick<CommandIo, 'cwd' | 'env'>,
  words: Words = wordsFor('en'),
): Promise<void> {
  printSummaries(summaries, out, io.cwd, words);
  await printReasons(summaries, out, { cwd: io.cwd, paint: paint(out, io.env), words });
}

/**
 * The last line of an import into the embedded sandbox, which plans its orders `seconds` after
 * they are created: when reading them back shows more than `to schedule`. Empty when it does not
 * plan them.
 */
export function planningHint(seconds: number, words: Words = wordsFor('en')): string {
  if (seconds <= 0) return '';
  return `${words.t('cli.import.planning', { seconds })}\n`;
}

export function printSummaries(
  summaries: readonly Summary[],
  out: NodeJS.WritableStream,
  cwd: string,
  words: Words = wordsFor('en'),
): void {
  const status = (s: string) => words.t('cli.status', { status: s.replace(/-/g, '_') });
  const header = [
    words.t('cli.summary.sheet'),
    words.t('cli.summary.rows'),
    ...['created', 'invalid', 'failed', 'needs-review', 'duplicate'].map(status),
  ];
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
    const sheet = shown(s.sheet);
    if (s.error !== undefined)
      out.write(`${words.t('cli.summary.unreadable', { sheet, error: terminalText(s.error) })}\n`);
    if (s.duplicateOf !== undefined)
      out.write(`${words.t('cli.summary.duplicate', { sheet, other: s.duplicateOf })}\n`);
    for (const warning of s.warnings)
      out.write(`${words.t('cli.summary.warning', { sheet, warning: terminalText(warning) })}\n`);
    out.write(`${words.t('cli.summary.report', { dir: shown(s.reportDir) })}\n`);
  }
}
