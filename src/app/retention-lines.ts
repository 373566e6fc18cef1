/** What `purge` and `watch`'s daily retention pass say of each sheet removed. */
import type { PurgedSheet } from './retention.js';
import type { Words } from '../language/words.js';

export function purgedLines(sheet: PurgedSheet, dryRun: boolean, words: Words): string[] {
  return [
    words.t('cli.purge.sheet', {
      dry: dryRun ? 'yes' : 'no',
      name: sheet.name,
      sheetId: sheet.sheetId,
      office: sheet.office,
      finished: words.dateTime(Date.parse(sheet.finishedAt)),
      folders: sheet.folders,
      records: sheet.records,
    }),
    ...sheet.refused.map((path) => words.t('cli.purge.refused', { path })),
  ];
}
