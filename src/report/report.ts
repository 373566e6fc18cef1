/**
 * rows → **report**: when every row of a sheet is final, its report folder
 * (`$REPORTS_DIR/<sheet-name>-<sheetId>/`): report.csv in sheet order, summary.json, failed/ in
 * the input's own format with the attachments its rows refer to, and needs-review.csv apart.
 * Written into a temporary folder and renamed into place: never half-written.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';

import type { Logger } from 'pino';

import type { Context } from '../context.js';
import { AttachmentRefused } from '../orders/open-attachment.js';
import { SheetError } from '../sheets/errors.js';
import type { RowResult } from '../sheets/read-sheet.js';
import type { SheetInfo } from '../sheets/types.js';
import { AttachmentCopies, CsvOut, JsonOut } from './report-files.js';
import type { RowOutcome, RowStatus } from '../store/results.js';
import { discardSheetCopy, sheetChanged } from '../store/sheet-copy.js';
import { readImported } from '../store/imported-sheet.js';
import type { SheetRecord } from '../store/sheet-store.js';

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
  if (sheet.state === 'done') return undefined; // written before
  await ctx.store.update(sheetId, { state: 'reporting' });
  const tmp = `${finalDir}.partial`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });

  // report.csv comes from the recorded results alone; failed/ and needs-review.csv need the rows
  // as written, and come from the sheet's private copy: the bytes imported, whatever the user's
  // file holds now.
  const counts: Record<RowStatus, number> = {
    created: 0,
    invalid: 0,
    failed: 0,
    'needs-review': 0,
    duplicate: 0,
  };
  const report = new CsvOut(join(tmp, 'report.csv'), REPORT_COLUMNS, sheet.delimiter ?? ',');
  const toBundle = new Set<number>();
  const total = sheet.total ?? 0;
  for (let first = 1; first <= total; first += 1000) {
    const rows = Array.from({ length: Math.min(1000, total - first + 1) }, (_, i) => first + i);
    const outcomes = await ctx.store.outcomes(sheetId, rows);
    for (const [i, row] of rows.entries()) {
      const outcome = outcomes[i] ?? missingOutcome();
      counts[outcome.status] += 1;
      await report.write(reportLine(row, outcome, sheet.columns));
      if (outcome.status !== 'created' && outcome.status !== 'duplicate') toBundle.add(row);
    }
  }
  await report.close();
  const warnings = [...sheet.warnings];
  if (sheet.origin !== undefined && sheet.error === undefined) {
    if (await sheetChanged(sheet.path, sheet.origin, sheet.sha256)) {
      warnings.push(
        `the sheet has changed since it was imported: this report and failed/ are of the version imported (sha256 ${sheet.sha256.slice(0, 12)}…), not of the file as it is now.`,
      );
    }
  }
  if (toBundle.size > 0 && sheet.error === undefined) {
    warnings.push(...(await writeBundles(sheet, toBundle, tmp, ctx)));
  }

  const finishedAt = new Date(ctx.now()).toISOString();
  const summary: Summary = {
    sheet: sheet.path,
    sheetId,
    sha256: sheet.sha256,
    total,
    created: counts.created,
    invalid: counts.invalid,
    failed: counts.failed,
    needsReview: counts['needs-review'],
    duplicate: counts.duplicate,
    warnings: [...new Set(warnings)],
    startedAt: sheet.startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(sheet.startedAt),
    apiBaseUrl: sheet.apiBaseUrl,
    sandbox: sheet.sandbox,
    connection: { name: ctx.connection.name, id: ctx.connection.id },
    ...(sheet.duplicateOf !== undefined && { duplicateOf: sheet.duplicateOf }),
    ...(sheet.error !== undefined && { error: sheet.error }),
    reportDir: finalDir,
  };
  await writeFile(join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await rm(finalDir, { recursive: true, force: true }); // a report of an earlier, interrupted run
  await rename(tmp, finalDir);
  await ctx.store.markReported(sheetId, finalDir, finishedAt);
  ctx.logger.info({ sheetId, reportDir: finalDir, ...counts }, 'report written');
  if (sheet.origin !== undefined) await dropCopy(sheet, ctx);
  const archive = ctx.settings.archive;
  const archived = archive && (await archiveWorkFolder(sheet, archive, ctx.logger));
  if (archived) {
    // Said again with where the sheet is now: a summary is read long after work/ is emptied.
    summary.sheet = archived;
    await writeFile(join(finalDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
  return summary;
}

/** The private copy has served: the report holds what is needed of its rows. */
async function dropCopy(sheet: SheetRecord, ctx: Context): Promise<void> {
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
  logger: Logger,
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

function reportLine(row: number, outcome: RowOutcome, columns: Record<string, string>) {
  return [
    row,
    outcome.line ?? '',
    outcome.reference ?? '',
    outcome.status,
    outcome.orderId ?? '',
    (outcome.inspectionIds ?? []).join('|'),
    (outcome.fileIds ?? []).map((id) => id ?? '').join('|'),
    outcome.attempts,
    errorText(outcome, columns),
  ];
}

/** failed/ and needs-review.csv, from the sheet read again; returns warnings. */
async function writeBundles(
  sheet: SheetRecord,
  rows: ReadonlySet<number>,
  dir: string,
  ctx: Context,
): Promise<string[]> {
  try {
    const opened = await readImported(sheet, ctx);
    if (opened === undefined) {
      // Only a sheet queued before copies were made, read at its own path, can come to this.
      return [
        'the sheet has changed since it was imported: failed/ and needs-review.csv were not written (report.csv lists every row).',
      ];
    }
    const writer = new ReportWriter(dir, opened.info, sheet.path, ctx.settings.maxAttachmentBytes);
    for await (const batch of opened.batches) {
      const wanted = batch.filter((r) => rows.has(r.row));
      const outcomes = await ctx.store.outcomes(
        sheet.sheetId,
        wanted.map((r) => r.row),
      );
      for (const [i, result] of wanted.entries())
        await writer.add(result, outcomes[i] ?? missingOutcome());
    }
    await writer.close();
    return writer.problems;
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return [
      `the sheet could no longer be read: failed/ and needs-review.csv were not written (${error.message}).`,
    ];
  }
}

function missingOutcome(): RowOutcome {
  return {
    status: 'failed',
    attempts: 0,
    error: 'not processed: no result was recorded for this row (see the warnings).',
  };
}

/** The rows of one report, each written where it belongs as it comes. */
class ReportWriter {
  readonly #failedCsv?: CsvOut;
  readonly #failedJson?: JsonOut;
  readonly #review: CsvOut;
  readonly #copies: AttachmentCopies;
  readonly #info: SheetInfo;
  /** What went wrong while writing, for the summary's warnings. */
  readonly problems: string[] = [];

  /** `original`: the user's sheet, beside which its attachments are (`info` is of the copy read). */
  constructor(dir: string, info: SheetInfo, original: string, maxAttachmentBytes: number) {
    this.#info = info;
    const delimiter = info.delimiter ?? ',';
    const failedDir = join(dir, 'failed');
    this.#copies = new AttachmentCopies(dirname(original), failedDir, maxAttachmentBytes);
    const sheetName = basename(original, extname(original));
    if (info.format === 'csv') {
      const header = info.header ?? [];
      const extra = header.some((h) => h.toLowerCase() === 'order_id')
        ? ['error']
        : ['order_id', 'error'];
      this.#failedCsv = new CsvOut(
        join(failedDir, `${sheetName}.csv`),
        [...header, ...extra],
        delimiter,
      );
      this.#review = new CsvOut(
        join(dir, 'needs-review.csv'),
        [...header, ...REVIEW_COLUMNS],
        delimiter,
      );
    } else {
      const style = info.format === 'json' ? 'array' : 'lines';
      this.#failedJson = new JsonOut(join(failedDir, `${sheetName}${extname(original)}`), style);
      this.#review = new CsvOut(
        join(dir, 'needs-review.csv'),
        ['row', 'reference', ...REVIEW_COLUMNS, 'record'],
        delimiter,
      );
    }
  }

  async add(result: RowResult, outcome: RowOutcome): Promise<void> {
    if (outcome.status === 'invalid' || outcome.status === 'failed') {
      await this.#addFailed(result, outcome, errorText(outcome, this.#info.columns ?? {}));
    }
    if (outcome.status === 'needs-review') await this.#addReview(result, outcome);
  }

  /** The row as the user wrote it, with why; an order that exists keeps its id and only its missing files. */
  async #addFailed(result: RowResult, outcome: RowOutcome, error: string): Promise<void> {
    const files =
      outcome.missingFiles ?? (result.ok ? result.attachments.map((a) => a.path) : result.files);
    for (const path of files) {
      try {
        await this.#copies.copy(path);
      } catch (copyError) {
        // A file the row names but that does not exist is what its error already says.
        if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') continue;
        if (copyError instanceof AttachmentRefused) {
          this.problems.push(`row ${result.row}: not copied into failed/: ${copyError.message}`);
          continue;
        }
        this.problems.push(
          `row ${result.row}: "${path}" could not be copied into failed/ (${(copyError as Error).message}).`,
        );
      }
    }
    if (this.#failedCsv) {
      const cells = [...(result.source.data as string[])];
      const header = this.#info.header ?? [];
      const filesAt =
        this.#info.columns?.files === undefined ? -1 : header.indexOf(this.#info.columns.files);
      if (outcome.missingFiles && filesAt >= 0) cells[filesAt] = outcome.missingFiles.join('|');
      while (cells.length < header.length) cells.push('');
      const orderIdAt = header.findIndex((h) => h.toLowerCase() === 'order_id');
      if (orderIdAt >= 0)
        cells[orderIdAt] =
          outcome.orderId === undefined ? (cells[orderIdAt] ?? '') : String(outcome.orderId);
      const extra = orderIdAt >= 0 ? [error] : [outcome.orderId ?? '', error];
      await this.#failedCsv.write([...cells.slice(0, header.length), ...extra]);
      return;
    }
    const object = { ...(result.source.data as Record<string, unknown>) };
    if (outcome.missingFiles) object.files = outcome.missingFiles;
    if (outcome.orderId !== undefined) object.order_id = outcome.orderId;
    object.error = error;
    await this.#failedJson?.write(object);
  }

  async #addReview(result: RowResult, outcome: RowOutcome): Promise<void> {
    const known = [outcome.review?.sentAt ?? '', outcome.review?.answer ?? '', outcome.error ?? ''];
    if (this.#info.format === 'csv') {
      const header = this.#info.header ?? [];
      const cells = [...(result.source.data as string[])].slice(0, header.length);
      while (cells.length < header.length) cells.push('');
      await this.#review.write([...cells, ...known]);
    } else {
      await this.#review.write([
        result.row,
        result.reference ?? '',
        ...known,
        JSON.stringify(result.source.data),
      ]);
    }
  }

  async close(): Promise<void> {
    await this.#failedCsv?.close();
    await this.#failedJson?.close();
    await this.#review.close();
  }
}

const REVIEW_COLUMNS = ['sent_at', 'answer', 'what_to_check'];

/** The row's error, with the API's field names (`order_products.0.id`) told as the sheet's columns. */
function errorText(outcome: RowOutcome, columns: Record<string, string>): string {
  if (!outcome.fieldErrors) return outcome.error ?? '';
  const fields = Object.entries(outcome.fieldErrors).map(([field, messages]) => {
    const base = field.split('.')[0] ?? field;
    const column = columns[base] ?? base;
    return `${column}: ${messages.join(' ')}`;
  });
  return `the API refused the order: ${fields.join(' | ')}`;
}
