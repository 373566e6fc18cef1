/**
 * Retention of personal data (docs/design.md "Operations", "Retention"): every reported sheet of
 * the configuration's connections finished before a date is removed — its report folder, its
 * archived copy and work folder (the hot folder's), its private copy and echo under the data
 * folder, and its records in Redis (store/sheet-purge.ts). The duplicates ledger and the record of
 * creates (row keys and order ids, nothing of a person) stay: a row imported before is still
 * `duplicate`. Used by `purge` and by `watch`'s daily pass.
 *
 * Each sheet is first withdrawn from what the pages list, then its files go, then its records:
 * cut short anywhere, nothing is shown half removed, and the next run finishes it.
 * Paths read from Redis are hostile input: only a folder directly inside REPORTS_DIR or one of
 * the data folder's own folders, named for this very sheet and no link, is ever removed.
 */
import { lstat, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import type { Redis } from 'ioredis';

import { connectRedis } from '../redis/connect.js';
import type { Settings } from '../settings/load.js';
import { Keys } from '../store/keys.js';
import {
  forgetSheet,
  purgeCandidates,
  type PurgeCandidate,
  type PurgeScope,
  withdrawSheet,
} from '../store/sheet-purge.js';
import { chosenConnection } from './chosen-connection.js';
import { configuredOffices } from './offices.js';
import { installationOfSettings, redisOf, sheetsDirOf } from './process-parts.js';

/** Where a configuration keeps a sheet's files. */
export interface PurgeFolders {
  reportsDir: string;
  archiveDir: string;
  workDir: string;
  /** DATA_DIR/sheets: the private copies and their echo files. */
  sheetsDir: string;
}

/** What was (or, for a dry run, would be) removed of one sheet. */
export interface PurgedSheet {
  sheetId: string;
  name: string;
  office: string;
  finishedAt: string;
  /** Folders removed: report, archive, work folder, private copy. */
  folders: number;
  /** Redis keys and agenda entries. */
  records: number;
  /** A report folder Redis named that is not this sheet's inside REPORTS_DIR: left alone. */
  refused: string[];
}

/** Purges the sheets of `scope`; each said through `said` as it is done. */
export async function purgeSheets(
  store: { redis: Redis; keys: Keys },
  folders: PurgeFolders,
  scope: PurgeScope & { dryRun: boolean },
  said: (sheet: PurgedSheet) => void,
): Promise<PurgedSheet[]> {
  const done: PurgedSheet[] = [];
  for (const sheet of await purgeCandidates(store.redis, store.keys, scope)) {
    const purged = await purgeOne(store, folders, sheet, scope.dryRun);
    said(purged);
    done.push(purged);
  }
  return done;
}

async function purgeOne(
  { redis, keys }: { redis: Redis; keys: Keys },
  folders: PurgeFolders,
  sheet: PurgeCandidate,
  dryRun: boolean,
): Promise<PurgedSheet> {
  const refused: string[] = [];
  const targets = [
    join(folders.archiveDir, sheet.sheetId),
    join(folders.workDir, sheet.sheetId),
    join(folders.sheetsDir, sheet.sheetId),
  ].map((path) => ({ path, root: dirname(path), suffix: sheet.sheetId }));
  if (sheet.reportDir !== undefined) {
    const report = { path: sheet.reportDir, root: folders.reportsDir, suffix: `-${sheet.sheetId}` };
    if (isOwnFolder(report)) targets.unshift(report);
    else refused.push(sheet.reportDir);
  }
  if (!dryRun) await withdrawSheet(redis, keys, sheet.sheetId);
  let removed = 0;
  for (const target of targets) {
    const found = await realFolder(target.path);
    if (found === 'link') refused.push(target.path);
    if (found !== 'folder') continue;
    removed += 1;
    // rm never follows a link inside the folder: it removes the link itself.
    if (!dryRun) await rm(target.path, { recursive: true, force: true });
  }
  const records = await forgetSheet(redis, keys, sheet, dryRun);
  return {
    sheetId: sheet.sheetId,
    name: sheet.name,
    office: sheet.connectionName,
    finishedAt: sheet.finishedAt,
    folders: removed,
    records: records.keys + records.agenda,
    refused,
  };
}

/** A folder directly inside `root` whose name ends with the sheet's id (its own, by its name). */
function isOwnFolder(target: { path: string; root: string; suffix: string }): boolean {
  const path = resolve(target.path);
  return (
    dirname(path) === resolve(target.root) &&
    basename(path).endsWith(target.suffix) &&
    basename(path) !== '..'
  );
}

/** What lies at `path`, never following a link. */
async function realFolder(path: string): Promise<'folder' | 'link' | 'none'> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return 'link';
    return stats.isDirectory() ? 'folder' : 'none';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/**
 * `purge`'s run: the configuration's offices (only `connection` when named; no API opened), its
 * data folder's installation and its Redis, then purgeSheets.
 */
export async function purgeWithSettings(
  settings: Settings,
  options: { before: number; connection?: string | undefined; dryRun: boolean },
  announce: (line: string) => void,
  said: (sheet: PurgedSheet) => void,
): Promise<PurgedSheet[]> {
  const offices = await configuredOffices(settings);
  const named =
    options.connection === undefined ? undefined : chosenConnection(settings, options.connection);
  const connectionIds = offices
    .filter((office) => named === undefined || office.name === named.name)
    .map((office) => office.id);
  const installation = await installationOfSettings(settings);
  const resolved = await redisOf(settings, announce);
  try {
    const redis = await connectRedis(resolved.target);
    try {
      return await purgeSheets(
        { redis, keys: new Keys(settings.queuePrefix) },
        foldersOf(settings),
        {
          before: options.before,
          connectionIds,
          installation: installation.id,
          dryRun: options.dryRun,
        },
        said,
      );
    } finally {
      redis.disconnect();
    }
  } finally {
    await resolved.release();
  }
}

/** Where this configuration keeps a sheet's files. */
export function foldersOf(
  settings: Pick<Settings, 'reportsDir' | 'archiveDir' | 'workDir' | 'dataDir'>,
): PurgeFolders {
  return {
    reportsDir: settings.reportsDir,
    archiveDir: settings.archiveDir,
    workDir: settings.workDir,
    sheetsDir: sheetsDirOf(settings),
  };
}
