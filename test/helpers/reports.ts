/** Report folders as report.ts writes them, for the dashboard's tests. */
import type { SheetProgress } from '../../src/store/progress.js';
import { put, tempDir } from './files.js';

export const HEADER =
  'row;line;reference;status;order_id;inspection_ids;file_ids;attempts;error;address;contact_name;source_row';

/** A report folder with `n` rows, every third invalid, as report.ts writes them. */
export async function reportOf(n: number, delimiter = ';'): Promise<string> {
  const dir = await tempDir('dashboard-rows-');
  const lines = [HEADER.replaceAll(';', delimiter)];
  for (let row = 1; row <= n; row++) {
    const invalid = row % 3 === 0;
    const cells = [
      row,
      row + 1,
      `REF-${row}`,
      invalid ? 'invalid' : 'created',
      invalid ? '' : 1000 + row,
      '',
      invalid ? '' : `${row}|`,
      invalid ? 0 : 1,
      invalid ? '"city: city is required; fix it, then drop it back"' : '',
      `"Kerkstraat ${row}, 9000 Gent"`,
      `Contact ${row}`,
      '',
    ];
    lines.push(cells.join(delimiter));
  }
  await put(dir, 'report.csv', `\uFEFF${lines.join('\r\n')}\r\n`);
  return dir;
}

export function sheetOf(reportDir: string, n: number, sheetId = 's1'): SheetProgress {
  const invalid = Math.floor(n / 3);
  return {
    sheetId,
    name: `${sheetId}.csv`,
    startedAt: '2025-03-04T10:00:00.000Z',
    state: 'done',
    total: n,
    final: n,
    counts: { created: n - invalid, invalid, failed: 0, 'needs-review': 0, duplicate: 0 },
    reportDir,
  };
}
