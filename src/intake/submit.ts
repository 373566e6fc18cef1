/**
 * A sheet submitted for import (by `import`, the hot folder or a schedule): its private copy
 * taken, its record written, its job queued. The same bytes imported before give a sheet whose
 * rows are all `duplicate`; the same bytes still being imported give that import back (it resumes
 * rather than starts again), unless the sheet comes with an id of its own (the hot folder's) or
 * that import is another data folder's (its report is on that disk).
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Context } from '../context.js';
import type { Mapping } from '../orders/mapping.js';
import { queueSheet } from '../queue/queues.js';
import {
  discardSheetCopy,
  type TakenSheet,
  takeSheetCopy,
  takeSheetInPlace,
} from '../store/sheet-copy.js';
import { handedNothingOn, type NewSheet } from '../store/sheet-store.js';
import { RECORD_WAIT } from '../policy.js';
import { echoFilePath, passOverTaken, type TakenPass } from '../store/taken-sheet.js';

export interface SubmitOptions {
  /** Import these bytes again, whatever was imported before. */
  allowDuplicates?: boolean;
  /** The sheet's mapping (orders/mapping-files.ts), stored with it for every worker. */
  mapping?: Mapping;
  /** The id to give the sheet (the hot folder names its work folder after it). */
  sheetId?: string;
  /**
   * The sheet is in a folder of the importer's own (the hot folder's work folder): it is its own
   * private copy, not copied again (store/sheet-copy.ts, `takeSheetInPlace`).
   */
  inPlace?: boolean;
  /**
   * With `inPlace`: the sheet's one pass, made before the importer moved it where it is (the hot
   * folder's, sheet-pass.ts), its echo file written for `sheetId`: it is not read again here.
   */
  passed?: PassedSheet;
}

/** A sheet hashed, scanned and read once already: what `takeSheet` would find itself. */
export interface PassedSheet {
  taken: TakenSheet;
  pass: TakenPass;
}

export interface Submitted {
  sheetId: string;
  /** An import of these bytes under way (or this very sheet, queued before) goes on. */
  resumed: boolean;
  /**
   * The import of these bytes under way on another data folder, which this sheet (a duplicate
   * of it, with a copy and a report on this one's disk) waits for.
   */
  awaits?: { sheetId: string; installation: string; dataDir?: string };
}

export async function submitSheet(
  ctx: Context,
  path: string,
  options: SubmitOptions = {},
): Promise<Submitted> {
  const where = { sheetsDir: ctx.settings.sheetsDir, now: ctx.now };
  return submitTaken(ctx, await takeSheet(where, path, options), options);
}

/** A sheet taken for import: its private copy, its hash and the one pass over it, done. */
export interface SheetTaken {
  sheetId: string;
  /** The user's file. */
  path: string;
  sha256: string;
  origin: NewSheet['origin'];
  taken: NewSheet['taken'];
}

/**
 * Takes the sheet at `path`: its private copy in `sheetsDir`, hashed and passed over once. Needs
 * neither Redis nor the API, so `import` takes its sheets while they connect. A sheet taken but
 * never submitted leaves its copy behind: `discardTaken` removes it.
 */
export async function takeSheet(
  where: { sheetsDir: string; now: () => number },
  path: string,
  options: Pick<SubmitOptions, 'mapping' | 'sheetId' | 'inPlace' | 'passed'> = {},
): Promise<SheetTaken> {
  const absolute = resolve(path);
  const sheetId = options.sheetId ?? newSheetId(where.now());
  // Every read of the sheet from now on parses this copy: the sheet imported is the one hashed.
  const inPlace = options.inPlace === true;
  const passed = inPlace ? options.passed : undefined;
  const { sha256, origin, scan, copy } =
    passed?.taken ??
    (inPlace
      ? await takeSheetInPlace(absolute)
      : await takeSheetCopy(absolute, where.sheetsDir, sheetId));
  // Read once here (or before it moved): its rows counted and echoed, so that no later stage
  // reads it but for its rows.
  const echo = echoFilePath(where.sheetsDir, sheetId);
  await mkdir(dirname(echo), { recursive: true });
  const mapping = options.mapping;
  const pass =
    passed?.pass ??
    (scan && (await passOverTaken(copy, scan, { echo, ...(mapping && { mapping }) })));
  const taken = pass && { scanned: pass.scanned, info: pass.info };
  return { sheetId, path: absolute, sha256, origin, taken };
}

/** The copy of a sheet taken but not submitted (the import stopped before it was queued). */
export async function discardTaken(sheetsDir: string, taken: SheetTaken): Promise<void> {
  await discardSheetCopy(sheetsDir, taken.sheetId, basename(taken.path));
}

/** A sheet taken (`takeSheet`) recorded and queued in `ctx`, or found imported or under way. */
export async function submitTaken(
  ctx: Context,
  taken: SheetTaken,
  options: SubmitOptions = {},
): Promise<Submitted> {
  const { sheetId, path, sha256, origin } = taken;
  const inPlace = options.inPlace === true;
  const mapping = options.mapping;
  const sheet: NewSheet = {
    sheetId,
    path,
    name: basename(path),
    sha256,
    connectionId: ctx.connection.id,
    connectionName: ctx.connection.name,
    // The copy was taken on this installation's disk: only its workers can read it.
    installation: ctx.installation.id,
    dataDir: dirname(ctx.settings.sheetsDir),
    origin,
    ...(inPlace && { inPlace }),
    apiBaseUrl: ctx.connection.apiBaseUrl,
    sandbox: ctx.connection.sandbox,
    allowDuplicates: options.allowDuplicates ?? false,
    startedAt: new Date(ctx.now()).toISOString(),
    ...(mapping && { mapping }),
    ...(taken.taken && { taken: taken.taken }),
  };
  const content = `${ctx.connection.id}|${sha256}`;
  let holder: string | undefined;
  // Asked for on purpose: a new import of these bytes, whatever was imported before.
  if (sheet.allowDuplicates) await ctx.store.create(sheet);
  else holder = await ctx.store.register(content, sheet);
  if (holder !== undefined) return submittedBefore(ctx, sheet, content, holder, options);
  await queueSheet(ctx.queues, sheetId);
  ctx.metrics.sheet(ctx.connection.name, 'queued');
  return { sheetId, resumed: false };
}

/** These bytes are registered to `holder` already: resume it, take it over or follow it. */
async function submittedBefore(
  ctx: Context,
  sheet: NewSheet,
  content: string,
  holder: string,
  options: SubmitOptions,
): Promise<Submitted> {
  const { sheetId } = sheet;
  const dropCopy = () => discardSheetCopy(ctx.settings.sheetsDir, sheetId, sheet.name);
  if (holder === sheetId) {
    // Queued under this very id before: a hot-folder intake resumed after a crash.
    const recorded = await ctx.store.get(sheetId);
    if (!recorded) await ctx.store.create(sheet);
    if (recorded?.state === 'done')
      await dropCopy(); // reported already
    else await queueSheet(ctx.queues, sheetId);
    return { sheetId, resumed: true };
  }
  const earlier = await holderRecord(ctx, holder);
  // A registration without a record was left by an older version that stopped in between
  // (registration and record are written together now), and one of a sheet that ended before a
  // row of it was handed on by an older version that kept it: nothing was sent for either, so
  // this import takes the content over (the rows' own claims still stand guard).
  const imported = earlier !== undefined && !handedNothingOn(earlier);
  if (!imported && (await ctx.store.replaceSha(content, holder, sheetId))) {
    await ctx.store.create(sheet);
    await queueSheet(ctx.queues, sheetId);
    ctx.metrics.sheet(ctx.connection.name, 'queued');
    return { sheetId, resumed: false };
  }
  const running = earlier !== undefined && earlier.state !== 'done';
  // Another data folder's import: its report is on that disk, and only its workers resume it.
  const elsewhere =
    running && earlier.installation !== undefined && earlier.installation !== sheet.installation
      ? earlier
      : undefined;
  if (running) {
    await queueSheet(ctx.queues, holder);
    // Given again by path (`import` run twice), it is that import, resumed. A copy taken by the
    // hot folder has a folder of its own and must get its own report, as must one taken on
    // another data folder: it becomes a duplicate sheet, whose job waits until the earlier one
    // is done.
    if (options.sheetId === undefined && elsewhere === undefined) {
      await dropCopy();
      return { sheetId: holder, resumed: true };
    }
  }
  // The content stays registered to the import that sent its orders.
  await ctx.store.create({ ...sheet, duplicateOf: holder });
  await queueSheet(ctx.queues, sheetId);
  if (elsewhere?.installation === undefined) return { sheetId, resumed: false };
  const { installation, dataDir } = elsewhere;
  const awaits = { sheetId: holder, installation, ...(dataDir !== undefined && { dataDir }) };
  return { sheetId, resumed: false, awaits };
}

/**
 * The holder's record. This version writes it with the registration, but a process of an older
 * one (a rolling upgrade) writes it a moment after: it is waited for a little before the holder
 * is taken for one that stopped in between.
 */
async function holderRecord(ctx: Context, holder: string) {
  let record = await ctx.store.get(holder);
  for (let tries = 0; !record && tries < RECORD_WAIT.tries; tries++) {
    await sleep(RECORD_WAIT.everyMs);
    record = await ctx.store.get(holder);
  }
  return record;
}

/** `20261126-101502-3fa9c1`: sortable, readable, and safe as part of a BullMQ job id. */
export function newSheetId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
