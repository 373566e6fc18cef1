import { createHash } from 'node:crypto';
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  discardSheetCopy,
  readInPlace,
  sheetChanged,
  sheetCopyPath,
  sheetSource,
  stillAsRead,
  takeSheetCopy,
} from '../../src/store/sheet-copy.js';
import { SheetError } from '../../src/sheets/errors.js';
import { put, tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('takeSheetCopy', () => {
  it('copies the sheet into a read-only file of its own and hashes the bytes copied', async () => {
    const dir = await tempDir('copy-');
    const sheetsDir = join(dir, 'sheets');
    const text = 'reference;city\nR-1;Liège\n';
    const path = await put(dir, 'orders.csv', text);
    const taken = await takeSheetCopy(path, sheetsDir, '20261126-101502-3fa9c1');
    expect(taken.copy).toBe(join(sheetsDir, '20261126-101502-3fa9c1', 'orders.csv'));
    expect(taken.sha256).toBe(sha256(text));
    expect(await readFile(taken.copy, 'utf8')).toBe(text);
    expect((await stat(taken.copy)).mode & 0o222).toBe(0);
    expect(await readdir(join(sheetsDir, '20261126-101502-3fa9c1'))).toEqual(['orders.csv']);
    expect(await sheetChanged(path, taken.origin)).toBe(false);
  });

  it('copies again a sheet rewritten while it was copied: the copy is one version', async () => {
    const dir = await tempDir('copy-');
    const path = await put(dir, 'orders.csv', 'reference\nOLD-1\n');
    const taken = await takeSheetCopy(path, join(dir, 'sheets'), 's-1', {
      afterCopy: async (attempt) => {
        if (attempt === 1) await put(dir, 'orders.csv', 'reference\nNEW-1\nNEW-2\n');
      },
    });
    expect(taken.sha256).toBe(sha256('reference\nNEW-1\nNEW-2\n'));
    expect(await readFile(taken.copy, 'utf8')).toBe('reference\nNEW-1\nNEW-2\n');
    expect(await sheetChanged(path, taken.origin)).toBe(false);
  });

  it('refuses a sheet that keeps changing, and leaves nothing behind', async () => {
    const dir = await tempDir('copy-');
    const path = await put(dir, 'orders.csv', 'reference\nR-1\n');
    const taking = takeSheetCopy(path, join(dir, 'sheets'), 's-1', {
      afterCopy: async (attempt) => appendFile(path, `R-${attempt + 1}\n`),
    });
    await expect(taking).rejects.toThrow(knownError('UserError', 'sheet.unsettled'));
    await expect(taking).rejects.toThrow(/kept changing while it was being queued/);
    expect(await readdir(join(dir, 'sheets', 's-1'))).toEqual([]);
  });
});

describe('sheetChanged', () => {
  it('tells a sheet saved over, replaced or removed from the version copied', async () => {
    const dir = await tempDir('changed-');
    const path = await put(dir, 'orders.csv', 'reference\nR-1\n');
    const { origin } = await takeSheetCopy(path, join(dir, 'sheets'), 's-1');
    expect(await sheetChanged(path, origin)).toBe(false);

    // Saved over with as many bytes: only its modification time tells.
    await put(dir, 'orders.csv', 'reference\nR-2\n');
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    expect(await sheetChanged(path, origin)).toBe(true);

    const { origin: second } = await takeSheetCopy(path, join(dir, 'sheets'), 's-2');
    await appendFile(path, 'R-3\n');
    expect(await sheetChanged(path, second)).toBe(true);

    const { origin: third } = await takeSheetCopy(path, join(dir, 'sheets'), 's-3');
    const other = await put(dir, 'other.csv', 'reference\nR-9\nR-10\n');
    await rename(other, path); // an editor's save: a new file renamed over the old one
    expect(await sheetChanged(path, third)).toBe(true);

    const { origin: fourth } = await takeSheetCopy(path, join(dir, 'sheets'), 's-4');
    await rm(path);
    expect(await sheetChanged(path, fourth)).toBe(true);
  });
});

describe('sheetChanged, given the hash queued', () => {
  it('does not call a sheet changed whose times alone differ (another host on a share), only one whose bytes do', async () => {
    const dir = await tempDir('touched-');
    const path = await put(dir, 'orders.csv', 'reference\nR-1\n');
    const { origin, sha256: hash } = await takeSheetCopy(path, join(dir, 'sheets'), 's-1');
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    const same = new Set<string>();
    expect(await sheetChanged(path, origin, hash, same)).toBe(false);
    expect(same.size).toBe(1); // that version is remembered: the next check hashes nothing
    expect(await sheetChanged(path, origin, hash, same)).toBe(false);

    await put(dir, 'orders.csv', 'reference\nR-2\n');
    expect(await sheetChanged(path, origin, hash, same)).toBe(true);
  });
});

describe('sheetCopyPath', () => {
  it('keeps every copy inside the sheets folder, whatever a record says', () => {
    expect(sheetCopyPath('/data/sheets', '20261126-101502-3fa9c1', 'orders.csv')).toBe(
      '/data/sheets/20261126-101502-3fa9c1/orders.csv',
    );
    expect(sheetCopyPath('/data/sheets', 's-1', '/elsewhere/orders.csv')).toBe(
      '/data/sheets/s-1/orders.csv',
    );
    for (const id of ['..', '.', '', 'a/b', '../x', '.hidden']) {
      expect(() => sheetCopyPath('/data/sheets', id, 'orders.csv')).toThrow(/not a sheet id/);
    }
    for (const name of ['', '..', '/']) {
      expect(() => sheetCopyPath('/data/sheets', 's-1', name)).toThrow(/not a sheet name/);
    }
  });
});

describe('sheetSource', () => {
  it('reads the copy, with attachments beside the original', () => {
    const sheet = { sheetId: 's-1', path: '/in/box/orders.csv', name: 'orders.csv' };
    expect(sheetSource({ ...sheet, origin: '12:34' }, '/data/sheets')).toEqual({
      path: '/data/sheets/s-1/orders.csv',
      folder: '/in/box',
    });
    // Queued before copies were made: read where it is.
    expect(sheetSource(sheet, '/data/sheets')).toEqual({
      path: '/in/box/orders.csv',
      folder: '/in/box',
    });
  });
});

describe('discardSheetCopy', () => {
  it('removes the copy and its folder, and is content when they are gone', async () => {
    const dir = await tempDir('discard-');
    const sheetsDir = join(dir, 'sheets');
    const path = await put(dir, 'orders.csv', 'reference\nR-1\n');
    await takeSheetCopy(path, sheetsDir, 's-1');
    await discardSheetCopy(sheetsDir, 's-1', 'orders.csv');
    expect(await readdir(sheetsDir)).toEqual([]);
    await discardSheetCopy(sheetsDir, 's-1', 'orders.csv');
  });
});

describe('readInPlace and stillAsRead', () => {
  /** A whole second: restored exactly by utimes, as a tool that sets the time back would. */
  const SECOND = 1_700_000_000;

  it('hashes and scans a sheet where it lies; the same file until written to, even to the same size and time', async () => {
    const dir = await tempDir('in-place-');
    const text = 'reference;city\nR-1;Gent\n';
    const path = await put(dir, 'orders.csv', text);
    await utimes(path, SECOND, SECOND);
    const taken = await readInPlace(path);
    expect(taken).toMatchObject({ sha256: sha256(text), copy: path });
    expect(taken?.scan).toMatchObject({ encoding: 'utf-8', bytes: text.length });
    const version = taken?.version ?? expect.fail('read');
    expect(await stillAsRead(path, version)).toBe(true);
    // Moved by the importer within its file system: a rename moves the ctime, nothing else.
    await mkdir(join(dir, 'work'));
    const moved = join(dir, 'work', 'orders.csv');
    await rename(path, moved);
    expect(await stillAsRead(moved, version, { moved: true })).toBe(true);
    await rename(moved, path);
    // Rewritten to the same size and its time set back, until the file system's coarse clock
    // has ticked past the read: then only the ctime tells the two versions apart.
    do {
      await writeFile(path, text.replace('Gent', 'Genk'));
      await utimes(path, SECOND, SECOND);
    } while ((await stat(path, { bigint: true })).ctimeNs === version.ctimeNs);
    expect((await stat(path)).size).toBe(Number(version.size));
    expect(await stillAsRead(path, version)).toBe(false);
    await rm(path);
    expect(await stillAsRead(path, version)).toBe(false);
  });

  it('never follows a link, and tells a link put in the place of the file read', async () => {
    const dir = await tempDir('in-place-');
    const target = await put(dir, 'elsewhere/orders.csv', 'reference\nR-1\n');
    const link = join(dir, 'orders.csv');
    await symlink(target, link);
    await expect(readInPlace(link)).rejects.toMatchObject({ code: 'ELOOP' });
    const taken = await readInPlace(target);
    const version = taken?.version ?? expect.fail('read');
    await rename(target, join(dir, 'elsewhere', 'moved.csv'));
    await symlink(join(dir, 'elsewhere', 'moved.csv'), target);
    expect(await stillAsRead(target, version)).toBe(false);
  });

  it('says why bytes that are no sheet of their format cannot be read', async () => {
    const dir = await tempDir('in-place-');
    const taken = await readInPlace(await put(dir, 'empty.csv', ''));
    expect(taken?.scan).toBeUndefined();
    expect(taken?.refused).toBeInstanceOf(SheetError);
    expect(taken?.refused?.message).toMatch(/the sheet is empty/);
  });
});
