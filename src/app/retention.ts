/**
 * Retention of personal data (docs/design.md "Operations", "Retention"): every reported sheet of
 * the configuration's connections finished before a date is removed — its report folder, its
 * archived copy and work folder (the hot folder's), its private copy and echo under the data
 * folder (retention-files.ts), the notifications told of it (retention-notify.ts), and its
 * records in Redis (store/sheet-purge.ts). The duplicates ledger and the record of creates (row
 * keys and order ids, nothing of a person) stay: a row imported before is still `duplicate`.
 * Used by `purge` and by `watch`'s daily pass.
 *
 * Each sheet is first withdrawn from what the pages list, then its files go, then its records:
 * cut short anywhere, nothing is shown half removed, and the next run finishes it.
 */
import type { Redis } from 'ioredis';

import { connectRedis } from '../redis/connect.js';
import type { Settings } from '../settings/load.js';
import { KeyLayout, type Keys, type KeySpace } from '../store/keys.js';
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
import { ownByItsFolder, type PurgeFolders, removeSheetFolders } from './retention-files.js';
import { SheetNotifications } from './retention-notify.js';

export type { PurgeFolders } from './retention-files.js';

/** What was (or, for a dry run, would be) removed of one sheet. */
export interface PurgedSheet {
  sheetId: string;
  name: string;
  office: string;
  finishedAt: string;
  /** Folders removed: report, archive, work folder, private copy. */
  folders: number;
  /** Redis keys, agenda entries and finished notifications. */
  records: number;
  /** A report folder Redis named that is not this sheet's inside REPORTS_DIR: left alone. */
  refused: string[];
}

/**
 * Purges the sheets of `scope`, in each key space of its offices (store/keys.ts, `KeyLayout`:
 * one on a server, one per office on a Cluster); each said through `said` as it is done.
 */
export async function purgeSheets(
  store: { redis: Redis; spaces: readonly KeySpace[] },
  folders: PurgeFolders,
  scope: PurgeScope & { dryRun: boolean },
  said: (sheet: PurgedSheet) => void,
): Promise<PurgedSheet[]> {
  const done: PurgedSheet[] = [];
  for (const { keys, offices } of store.spaces) {
    const connectionIds = scope.connectionIds.filter((id) => offices.includes(id));
    const inSpace = { ...scope, connectionIds };
    done.push(...(await purgeSpace({ redis: store.redis, keys }, folders, inSpace, said)));
  }
  return done;
}

/** The sheets of one key space, oldest first. */
async function purgeSpace(
  store: { redis: Redis; keys: Keys },
  folders: PurgeFolders,
  scope: PurgeScope & { dryRun: boolean },
  said: (sheet: PurgedSheet) => void,
): Promise<PurgedSheet[]> {
  const candidates = (await purgeCandidates(store.redis, store.keys, scope)).filter((sheet) =>
    ownByItsFolder(sheet, folders),
  );
  const notifications = await SheetNotifications.of(store, candidates);
  try {
    const done: PurgedSheet[] = [];
    for (const sheet of candidates) {
      const purged = await purgeOne(store, { folders, notifications }, sheet, scope.dryRun);
      said(purged);
      done.push(purged);
    }
    return done;
  } finally {
    await notifications.close();
  }
}

/** Withdrawn first, then its folders, its notifications, and its records last. */
async function purgeOne(
  { redis, keys }: { redis: Redis; keys: Keys },
  { folders, notifications }: { folders: PurgeFolders; notifications: SheetNotifications },
  sheet: PurgeCandidate,
  dryRun: boolean,
): Promise<PurgedSheet> {
  if (!dryRun) await withdrawSheet(redis, keys, sheet.sheetId);
  const { removed, refused } = await removeSheetFolders(folders, sheet, dryRun);
  const told = await notifications.forget(sheet, dryRun);
  const records = await forgetSheet(redis, keys, sheet, dryRun);
  return {
    sheetId: sheet.sheetId,
    name: sheet.name,
    office: sheet.connectionName,
    finishedAt: sheet.finishedAt,
    folders: removed,
    records: records.keys + records.agenda + told,
    refused,
  };
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
      const spaces = KeyLayout.of(settings.queuePrefix, resolved.target).spaces(connectionIds);
      return await purgeSheets(
        { redis, spaces },
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
