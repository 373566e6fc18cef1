import { appendFile, lstat, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  isIgnoredPath,
  isSheetCandidate,
  moveFile,
  removeIfEmpty,
  unreadableFormatHint,
  waitStable,
} from '../../src/intake/files.js';
import { put, tempDir } from '../helpers/files.js';
import { wordsFor } from '../../src/language/words.js';
import { say } from '../../src/sheets/said.js';

describe('isSheetCandidate', () => {
  it.each([
    ['orders.csv', true],
    ['inbox/agency/ORDERS.CSV', true],
    ['export.json', true],
    // The mapping of the sheets beside it, though it ends in .json.
    ['mapping.json', false],
    ['inbox/gent/Mapping.JSON', false],
    ['mapping.json.csv', true],
    ['lines.ndjson', true],
    ['lines.jsonl', true],
    ['~$orders.csv', false],
    ['.~lock.orders.csv#', false],
    ['orders.csv.tmp', false],
    ['orders.csv.part', false],
    ['orders.csv.crdownload', false],
    ['.hidden.csv', false],
    ['plan.pdf', false],
    ['orders.xlsx', true],
    ['orders.xls', false],
  ])('%s → %s', (path, taken) => {
    expect(isSheetCandidate(path)).toBe(taken);
  });

  it('ignores hidden folders and temporary files, not ordinary ones', () => {
    expect(isIgnoredPath('/data/inbox/.git')).toBe(true);
    expect(isIgnoredPath('/data/inbox/docs')).toBe(false);
    expect(isIgnoredPath('/data/inbox/docs/plan.pdf')).toBe(false);
  });
});

describe('unreadableFormatHint', () => {
  it.each(['inbox/Orders.XLS', 'orders.xlsb', 'orders.ods', 'orders.numbers'])(
    'tells the user to save %s as .xlsx or CSV',
    (path) => {
      const hint = unreadableFormatHint(path);
      expect(hint && say(wordsFor('en'), hint)).toMatch(
        /spreadsheet format the importer does not read.*save it as \.xlsx or CSV \(UTF-8\)/,
      );
      expect(hint && say(wordsFor('nl'), hint)).toMatch(
        /rekenbladformaat dat de importer niet leest.*sla het op als \.xlsx of als CSV \(UTF-8\)/,
      );
    },
  );

  it.each(['plan.pdf', 'orders.csv', 'orders.xlsx', 'orders.xlsm', '~$orders.xls', 'photo.jpg'])(
    'says nothing of %s',
    (path) => {
      expect(unreadableFormatHint(path)).toBeUndefined();
    },
  );

  it.each(['orders.xlsx', 'Orders.XLSM'])('takes %s as a sheet', (path) => {
    expect(isSheetCandidate(path)).toBe(true);
  });
});

describe('waitStable', () => {
  it('waits while a file keeps growing, then says it is stable', async () => {
    const dir = await tempDir('stable-');
    const path = join(dir, 'growing.csv');
    await writeFile(path, 'a');
    let writes = 0;
    const writer = setInterval(() => {
      if (writes++ < 6) void appendFile(path, 'more');
    }, 40);
    const started = Date.now();
    expect(await waitStable(path, 200)).toBe(true);
    clearInterval(writer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200 + 5 * 40 - 60);
  });

  it('says false for a file that is gone, or still changing at the deadline', async () => {
    const dir = await tempDir('stable-');
    expect(await waitStable(join(dir, 'none.csv'), 100)).toBe(false);
    const path = await put(dir, 'busy.csv', 'x');
    const writer = setInterval(() => void appendFile(path, 'y'), 20);
    expect(await waitStable(path, 500, { deadline: Date.now() + 300 })).toBe(false);
    clearInterval(writer);
  });
});

describe('moveFile', () => {
  it('moves into a folder it creates', async () => {
    const dir = await tempDir('move-');
    const from = await put(dir, 'a/plan.pdf', 'plan');
    await moveFile(from, join(dir, 'work', 'x', 'docs', 'plan.pdf'));
    await expect(moveFile(from, join(dir, 'again.pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('removeIfEmpty', () => {
  it('removes an empty folder only once it has stayed empty for the grace period', async () => {
    const dir = await tempDir('tidy-');
    const empty = join(dir, 'agency', 'docs');
    await mkdir(empty, { recursive: true });
    const changed = (await stat(empty)).mtimeMs;
    expect(await removeIfEmpty(empty, 10_000, changed + 1000)).toBe('wait');
    expect(await removeIfEmpty(empty, 10_000, changed + 10_000)).toBe('removed');
    await expect(stat(empty)).rejects.toThrow(/ENOENT/);
    expect(await readdir(join(dir, 'agency'))).toEqual([]);
  });

  it('keeps a folder that holds anything, and says kept of one that is gone', async () => {
    const dir = await tempDir('tidy-');
    await put(dir, 'agency/next.csv', 'a;b');
    const far = Date.now() + 3_600_000;
    expect(await removeIfEmpty(join(dir, 'agency'), 0, far)).toBe('kept');
    expect(await readdir(join(dir, 'agency'))).toEqual(['next.csv']);
    expect(await removeIfEmpty(join(dir, 'never-there'), 0, far)).toBe('kept');
    expect(await removeIfEmpty(join(dir, 'agency', 'next.csv'), 0, far)).toBe('kept');
  });

  it('keeps a link to an empty folder: it is no folder of the inbox, and never followed', async () => {
    const dir = await tempDir('tidy-');
    await mkdir(join(dir, 'elsewhere'));
    await mkdir(join(dir, 'inbox'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'inbox', 'linked'));
    const far = Date.now() + 3_600_000;
    expect(await removeIfEmpty(join(dir, 'inbox', 'linked'), 0, far)).toBe('kept');
    expect((await lstat(join(dir, 'inbox', 'linked'))).isSymbolicLink()).toBe(true);
  });
});
