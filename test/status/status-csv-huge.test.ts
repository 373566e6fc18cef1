/**
 * A status.csv too large to read whole (past the limit of a report's files, or even of one string:
 * a person's edit, a disk filled by a runaway process) is a UserError ('report-folder.unusable'), which the status
 * stage takes as "previous status.csv ignored", not a crash of the whole run.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { readStatusLines } from '../../src/status/status-csv.js';
import { tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';

it('says a status.csv too large to read is one it cannot read (report-folder.unusable)', async () => {
  const dir = await tempDir('review13-huge-status-');
  const file = await open(join(dir, 'status.csv'), 'w');
  await file.write('\uFEFFrow,reference,order_id,order_status\r\n');
  // Sparse: no disk is spent, but the file is 600 MiB long.
  await file.truncate(600 * 1024 * 1024);
  await file.close();
  await expect(readStatusLines(dir)).rejects.toThrow(
    knownError('UserError', 'report-folder.unusable'),
  );
}, 120_000);
