import { describe, expect, it } from 'vitest';

import { sheetFormat } from '../../src/sheets/records.js';
import { runInProcess } from '../helpers/cli.js';

/** Every file name ending a sheet may have (records.ts reads these and refuses the rest). */
const SHEET_EXTENSIONS = ['.xlsx', '.xlsm', '.csv', '.json', '.ndjson', '.jsonl', '.xls', '.ods'];

describe('the help of the commands that read sheets', () => {
  it.each(['import', 'validate'])('%s --help names every kind of sheet it reads', async (name) => {
    const help = await runInProcess([name, '--help']);
    expect(help.code).toBe(0);
    const read = SHEET_EXTENSIONS.filter((ext) => sheetFormat(`orders${ext}`) !== undefined);
    expect(read).toContain('.xlsx');
    for (const ext of read) expect(help.stdout, ext).toContain(ext);
  });

  it('points at the reference of every setting, in the repository', async () => {
    const help = await runInProcess(['import', '--help']);
    expect(help.stdout).toContain('docs/reference.md');
  });
});
