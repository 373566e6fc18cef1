/**
 * The installation's marker on disk: `$DATA_DIR/installation.json`, `{ "id", "createdAt" }`,
 * written once when a data folder is first used and never changed after.
 *
 * Why a marker of its own: processes may share a Redis without sharing a disk (another host, a
 * share not mounted, another `DATA_DIR` on one machine). The id names the data folder, so a
 * worker can tell a job whose files lie on its own disk from one whose files it cannot reach;
 * and the same id kept in Redis tells a Redis that lost its data from one that never had it.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';
import { UserError } from '../errors.js';
import { writingIn } from '../machine-fault.js';

export const INSTALLATION_FILE = 'installation.json';

export interface Installation {
  /** 16 hex digits: never a path, never anything of the user's. */
  id: string;
  /** When the data folder was first used. */
  createdAt: string;
  /** Whether this call wrote the marker (a data folder never used before). */
  created: boolean;
}

const MARKER = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  createdAt: z.string().min(1).max(64),
});

/**
 * The data folder's marker, written the first time (by exactly one of racing processes). One that
 * cannot be read or written is a UserError ('installation.marker-unusable'): the data folder is
 * not this process's to use until a person looks.
 */
export async function installationOf(
  dataDir: string,
  now: () => number = Date.now,
): Promise<Installation> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, INSTALLATION_FILE);
  const existing = await readMarker(path);
  if (existing !== undefined) return { ...existing, created: false };
  const fresh = { id: randomBytes(8).toString('hex'), createdAt: new Date(now()).toISOString() };
  // Written aside and linked into place without replacing: of two processes starting at once on
  // a new folder, one marker wins and both read it.
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeNew(aside, `${JSON.stringify(fresh)}\n`);
  try {
    await linkInPlace(aside, path);
  } finally {
    await rm(aside, { force: true });
  }
  const won = await readMarker(path);
  if (won === undefined)
    throw new UserError('installation.marker-unusable', `${path} vanished as it was written.`, {
      variant: 'vanished',
      values: { path },
    });
  return { ...won, created: won.id === fresh.id };
}

async function readMarker(path: string): Promise<Omit<Installation, 'created'> | undefined> {
  let text: string;
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = await readFile(handle, { encoding: 'utf8' });
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UserError(
        'installation.marker-unusable',
        `${path} is a link: it must be a file of its own.`,
        { variant: 'link', values: { path } },
      );
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(0, 4096));
  } catch (error) {
    throw damaged(path, error);
  }
  const marker = MARKER.safeParse(parsed);
  if (!marker.success) throw damaged(path, marker.error);
  return marker.data;
}

function damaged(path: string, cause: unknown): UserError {
  return new UserError(
    'installation.marker-unusable',
    `${path} is damaged: it names this data folder, so it is never rewritten by hand; restore it from a backup, or remove it if this data folder was never used with a Redis before.`,
    { cause, variant: 'damaged', values: { path } },
  );
}

async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    // A full disk fails the write, which names no file: the line said of it names the folder.
    await writingIn(path, async () => {
      await handle.writeFile(text);
      await handle.sync();
    });
  } finally {
    await handle.close();
  }
}

/** Puts `aside` at `path` unless something is there already (then the one there wins). */
async function linkInPlace(aside: string, path: string): Promise<void> {
  try {
    await link(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    // A file system without hard links: a rename, after checking once more that none is there.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    if ((await readMarker(path)) === undefined) await rename(aside, path);
  }
}
