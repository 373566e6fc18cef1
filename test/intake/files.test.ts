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
      expect(unreadableFormatHint(path)).toMatch(
        /spreadsheet format the importer does not read.*save it as \.xlsx or CSV \(UTF-8\)/,
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
