/**
 * rows → **report**: when every row of a sheet is final, its report folder
 * (`$REPORTS_DIR/<sheet-name>-<sheetId>/`): report.csv in sheet order, summary.json, failed/ in
 * the input's own format with the attachments its rows refer to, and needs-review.csv apart.
 * Written into a temporary folder and renamed into place: never half-written.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';

import type { Context } from '../context.js';
import type { RowOutcome, RowStatus } from '../glossary.js';
import { discardSheetCopy, sheetChanged } from '../store/sheet-copy.js';
import type { SheetRecord } from '../store/sheet-store.js';
import { writeBundles } from './bundles.js';
import { tellDone, tellDoneAgain } from './done-event.js';
import { FixClaims, recordFixes } from './fixes.js';
import { errorText, missingOutcome } from './outcome-text.js';
import { CsvOut } from './report-files.js';
import { openRowEchoes, type RowEcho } from './row-echo.js';

/** The office's words (its reports are in them). */
type Words = Context['words'];

/** summary.json (docs/design.md §2 "Reports"); never holds the token. */
export interface Summary {
  sheet: string;
  sheetId: string;
  sha256: string;
  total: number;
  created: number;
  invalid: number;
  failed: number;
  needsReview: number;
  duplicate: number;
  warnings: string[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  apiBaseUrl: string;
  sandbox: boolean;
  /** Which connection the orders went through (its id is a hash: never the token). */
  connection: { name: string; id: string };
  duplicateOf?: string;
  /** Why the sheet could not be read at all. */
  error?: string;
  reportDir: string;
}

export const REPORT_COLUMNS = [
  'row',
  'line',
  'reference',
  'status',
  'order_id',
  'inspection_ids',
  'file_ids',
  'attempts',
  'error',
  // For people (§2 "Reports"): read without joining the report to the sheet (row-echo.ts).
  'address',
  'contact_name',
  'source_row',
  // The attachments by the names the sheet gives them, beside file_ids (the dashboard shows them).
  'files',
];

/** Where a sheet's report goes. */
export function reportDirOf(
  reportsDir: string,
  sheet: Pick<SheetRecord, 'path' | 'sheetId'>,
): string {
  const name = basename(sheet.path, extname(sheet.path)).replace(/[^\w.-]+/g, '_');
  return join(reportsDir, `${name}-${sheet.sheetId}`);
}

/** Writes the report of a sheet whose rows are all final; returns its summary. */
export async function writeReport(ctx: Context, sheetId: string): Promise<Summary | undefined> {
  const sheet = await ctx.store.get(sheetId);
  if (!sheet) return undefined;
  const finalDir = reportDirOf(ctx.settings.reportsDir, sheet);
  if (sheet.state === 'done') {
    // Written before, by a run that may have stopped before it told anyone.
    await tellDoneAgain(ctx, sheet);
    return undefined;
  }
  await ctx.store.update(sheetId, { state: 'reporting' });
  const tmp = `${finalDir}.partial`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });

  // report.csv comes from the recorded results alone; failed/ and needs-review.csv need the rows
  // as written, and come from the sheet's private copy: the bytes imported, whatever the user's
  // file holds now.
  const { counts, toBundle, problems, claims } = await writeReportCsv(
    ctx,
    sheet,
    join(tmp, 'report.csv'),
  );
  const warnings = [...sheet.warnings, ...(await changedWarning(ctx.words, sheet)), ...problems];
  if (toBundle.size > 0 && sheet.error === undefined) {
    warnings.push(...(await writeBundles(ctx, sheet, toBundle, tmp)));
  }

  const finishedAt = new Date(ctx.now()).toISOString();
  const summary = summaryOf(ctx, sheet, { counts, warnings, finishedAt, reportDir: finalDir });
  await writeFile(join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await rm(finalDir, { recursive: true, force: true }); // a report of an earlier, interrupted run
  await rename(tmp, finalDir);
  // Before the sheet is done: a run again after a crash here links the same rows, once.
  await recordFixes(ctx, sheet, claims);
  // Counted by the run that wrote it, before anyone can see it done; a run again that finds it
  // written does not come here.
  ctx.metrics.sheet(ctx.connection.name, 'reported');
  await ctx.store.markReported(sheetId, finalDir, finishedAt);
  ctx.logger.info({ sheetId, reportDir: finalDir, ...counts }, 'report written');
  if (sheet.origin !== undefined) await dropCopy(ctx, sheet);
  const archive = ctx.settings.archive;
  const archived = archive && (await archiveWorkFolder(sheet, archive, ctx.logger));
  if (archived) {
    // Said again with where the sheet is now: a summary is read long after work/ is emptied.
    summary.sheet = archived;
    await writeFile(join(finalDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
  await tellDone(ctx, summary);
  return summary;
}

/** report.csv, a line per row in sheet order; returns the counts and the rows to bundle. */
async function writeReportCsv(
  ctx: Context,
  sheet: SheetRecord,
  path: string,
): Promise<{
  counts: Record<RowStatus, number>;
  toBundle: Set<number>;
  problems: string[];
  /** The rows that fixed rows of earlier sheets, as they say (fix-claims.ts). */
  claims: FixClaims;
}> {
  const counts: Record<RowStatus, number> = {
    created: 0,
    invalid: 0,
    failed: 0,
    'needs-review': 0,
    duplicate: 0,
  };
  const report = new CsvOut(path, REPORT_COLUMNS, sheet.delimiter ?? ',');
  const echoes = await openRowEchoes(sheet, ctx.settings);
  const toBundle = new Set<number>();
  const claims = new FixClaims();
  const total = sheet.total ?? 0;
  try {
    for (let first = 1; first <= total; first += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - first + 1) }, (_, i) => first + i);
      const outcomes = await ctx.store.outcomes(sheet.sheetId, rows);
      for (const [i, row] of rows.entries()) {
        const outcome = outcomes[i] ?? missingOutcome(ctx.words);
        counts[outcome.status] += 1;
        const echo = await echoes.of(row);
        await report.write(reportLine(ctx.words, row, outcome, sheet.columns, echo));
        claims.add(outcome.status, echo);
        if (outcome.status !== 'created' && outcome.status !== 'duplicate') toBundle.add(row);
      }
    }
  } finally {
    await echoes.close();
  }
  await report.close();
  const problems = echoes.problem === undefined ? [] : [echoes.problem];
  return { counts, toBundle, problems, claims };
}

/** The user's file saved over since: the report is of the version imported, and says so. */
async function changedWarning(words: Words, sheet: SheetRecord): Promise<string[]> {
  if (sheet.origin === undefined || sheet.error !== undefined) return [];
  if (!(await sheetChanged(sheet.path, sheet.origin, sheet.sha256))) return [];
  return [words.t('rows.warning.changedSince', { sha: sheet.sha256.slice(0, 12) })];
}

function summaryOf(
  ctx: Context,
  sheet: SheetRecord,
  report: {
    counts: Record<RowStatus, number>;
    warnings: string[];
    finishedAt: string;
    reportDir: string;
  },
): Summary {
  const { counts, finishedAt } = report;
  return {
    sheet: sheet.path,
    sheetId: sheet.sheetId,
    sha256: sheet.sha256,
    total: sheet.total ?? 0,
    created: counts.created,
    invalid: counts.invalid,
    failed: counts.failed,
    needsReview: counts['needs-review'],
    duplicate: counts.duplicate,
    warnings: [...new Set(report.warnings)],
    startedAt: sheet.startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(sheet.startedAt),
    apiBaseUrl: sheet.apiBaseUrl,
    sandbox: sheet.sandbox,
    // The name it was queued under: a worker may know the same connection by another name.
    connection: { name: sheet.connectionName ?? ctx.connection.name, id: ctx.connection.id },
    ...(sheet.duplicateOf !== undefined && { duplicateOf: sheet.duplicateOf }),
    ...(sheet.error !== undefined && { error: sheet.error }),
    reportDir: report.reportDir,
  };
}

/** The private copy has served: the report holds what is needed of its rows. */
async function dropCopy(ctx: Context, sheet: SheetRecord): Promise<void> {
  try {
    await discardSheetCopy(ctx.settings.sheetsDir, sheet.sheetId, sheet.name);
  } catch (error) {
    // The report stands; a copy left behind costs only its room.
    ctx.logger.error({ sheetId: sheet.sheetId, err: error }, 'could not remove the sheet copy');
  }
}

/**
 * Moves a hot-folder sheet's work folder (the sheet and its attachments) to the archive;
 * returns where the sheet is then, or undefined when it was not moved.
 */
async function archiveWorkFolder(
  sheet: SheetRecord,
  dirs: { workDir: string; archiveDir: string },
  logger: Context['logger'],
): Promise<string | undefined> {
  const work = join(dirs.workDir, sheet.sheetId);
  if (dirname(sheet.path) !== work && !sheet.path.startsWith(`${work}/`)) return undefined;
  await mkdir(dirs.archiveDir, { recursive: true });
  const archive = join(dirs.archiveDir, sheet.sheetId);
  try {
    await rename(work, archive);
    return join(archive, relative(work, sheet.path));
  } catch (error) {
    // Left in work/ rather than lost: nothing is ever deleted.
    logger.error({ sheetId: sheet.sheetId, err: error }, 'could not archive the work folder');
    return undefined;
  }
}

function reportLine(
  words: Words,
  row: number,
  outcome: RowOutcome,
  columns: Record<string, string>,
  echo: RowEcho,
) {
  return [
    row,
    outcome.line ?? '',
    outcome.reference ?? '',
    outcome.status,
    outcome.orderId ?? '',
    (outcome.inspectionIds ?? []).join('|'),
    (outcome.fileIds ?? []).map((id) => id ?? '').join('|'),
    outcome.attempts,
    errorText(outcome, columns, words),
    echo.address,
    echo.contactName,
    echo.sourceRow,
    echo.files,
  ];
}
