/**
 * Which sheets `status` reads back: the report folders or sheet ids it is given, or every sheet
 * reported in the last STATUS_DAYS. A folder is read only if it is a report folder (summary.json
 * and report.csv), wherever it is; a sheet id only if REPORTS_DIR has its report.
 */
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';

import { configuredOffices } from '../../app/offices.js';
import type { Settings } from '../../settings/load.js';
import {
  readReportedSheet,
  recentReports,
  type ReportedSheet,
  reportOfSheet,
} from '../../status/report-folder.js';
import { UserError } from '../../errors.js';
import type { Words } from '../../language/words.js';
import { errorMessage } from '../error-line.js';

export interface ChosenSheets {
  sheets: ReportedSheet[];
  /** No argument: every recent sheet, those whose orders are all final left unread. */
  byDefault: boolean;
}

export async function chosenSheets(
  targets: readonly string[],
  settings: Settings,
  cwd: string,
  warn: (line: string) => void,
  words: Words,
): Promise<ChosenSheets> {
  if (targets.length === 0) {
    const sheets = await recentReports(
      settings.reportsDir,
      settings.statusDays,
      Date.now(),
      (p) => {
        warn(errorMessage(p, words));
      },
    );
    // This configuration's sheets only: a reports folder may be shared with another.
    const own = new Set((await configuredOffices(settings)).map((office) => office.id));
    const owned = sheets.filter((s) => s.connectionId !== undefined && own.has(s.connectionId));
    return { sheets: owned, byDefault: true };
  }
  const sheets: ReportedSheet[] = [];
  for (const target of targets) {
    const sheet = await oneSheet(target, settings, cwd);
    if (!sheets.some((s) => s.dir === sheet.dir)) sheets.push(sheet);
  }
  return { sheets, byDefault: false };
}

async function oneSheet(target: string, settings: Settings, cwd: string): Promise<ReportedSheet> {
  const path = resolve(cwd, target);
  const stats = await lstat(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (stats !== undefined) {
    if (!stats.isDirectory())
      throw new UserError(
        'status.target-unknown',
        `${target} is not a report folder (a folder with summary.json and report.csv), nor a sheet id.`,
        { values: { target } },
      );
    const sheet = await readReportedSheet(path);
    if (sheet === undefined)
      throw new UserError(
        'status.not-a-report-folder',
        `${target} is not a report folder: it has no summary.json and report.csv.`,
        { values: { target } },
      );
    return sheet;
  }
  if (!/^[\w.-]+$/.test(target) || target.includes('/'))
    throw new UserError('status.target-missing', `${target} does not exist.`, {
      values: { target },
    });
  const sheet = await reportOfSheet(settings.reportsDir, target);
  if (sheet === undefined)
    throw new UserError(
      'status.no-report',
      `No report of sheet ${target} in ${settings.reportsDir} (REPORTS_DIR): give a sheet id as summary.json names it, or a report folder.`,
      { values: { sheetId: target, dir: settings.reportsDir } },
    );
  return sheet;
}
