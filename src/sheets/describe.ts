/** What kind of sheet a file is, as `validate` says it beside its name, in the reader's words. */
import type { Words } from '../language/words.js';
import type { SheetInfo } from './types.js';

export function describeSheet(info: SheetInfo, words: Words): string {
  if (info.format === 'xlsx')
    return words.t('sheets.describe.xlsx', { worksheet: info.worksheet ?? '' });
  if (info.format !== 'csv')
    return words.t('sheets.describe.text', {
      format: info.format.toUpperCase(),
      encoding: info.encoding,
    });
  const delimiter =
    info.delimiter === undefined
      ? '","'
      : info.delimiter === '\t'
        ? words.t('sheets.describe.tab')
        : `"${info.delimiter}"`;
  return words.t('sheets.describe.csv', { delimiter, encoding: info.encoding });
}
