/**
 * What a sheet's import said of it, as its page shows it: the mapping it was read with as a calm
 * note, the rest as warnings, and the mapping file named by its name, never by where it lies on
 * the server (an office manager reads the page; the path is the operator's, in summary.json).
 */
import { basename } from 'node:path';

import { LANGUAGES } from '../language/languages.js';
import { wordsFor } from '../language/words.js';
import type { SheetDetail } from '../store/progress.js';
import { shown } from './html.js';

/**
 * How a note of the mapping used begins in each language (the warning was written in its
 * office's, which need not be the page's): the catalogue's text before its `{mapping}`.
 */
function mappingNoteOpenings(): string[] {
  const mark = '\uE000';
  return LANGUAGES.map(
    (language) =>
      wordsFor(language).t('rows.warning.mappingUsed', { mapping: mark }).split(mark)[0] ?? '',
  ).filter((opening) => opening !== '');
}

/** The sheet's warnings as HTML: the mapping note apart, as a note; nothing when there are none. */
export function sheetNotes(sheet: Pick<SheetDetail, 'warnings' | 'mappingFile'>): string {
  const file = sheet.mappingFile;
  const named = (text: string) =>
    file === undefined || file === '' ? text : text.replaceAll(file, basename(file));
  const openings = mappingNoteOpenings();
  const isNote = (text: string) => openings.some((opening) => text.startsWith(opening));
  const notes = sheet.warnings
    .filter(isNote)
    .map((text) => `<p class="note mapping-note">${shown(named(text))}</p>`);
  const warnings = sheet.warnings.filter((text) => !isNote(text));
  const list =
    warnings.length === 0
      ? []
      : [
          `<ul class="warnings">${warnings.map((w) => `<li>${shown(named(w))}</li>`).join('')}</ul>`,
        ];
  return [...list, ...notes].join('\n');
}
