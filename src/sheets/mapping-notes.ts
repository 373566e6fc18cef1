/**
 * What a sheet is told of its mapping: which one it was read with (once per sheet), its unknown
 * columns with the mapping to write for those that look like a field, and the same advice when
 * its header names no field at all. A `mapping.json` is never read as a sheet.
 */
import { basename } from 'node:path';

import { type Words, wordsFor } from '../language/words.js';
import { type HeaderMap, normaliseHeader, type SheetField } from '../orders/columns.js';
import {
  type Lookalike,
  lookalikes,
  mappingAdvice,
  mappingTarget,
} from '../orders/header-hints.js';
import { isMappingFile } from '../orders/mapping-files.js';
import { describeMapping, type Mapping } from '../orders/mapping.js';
import { SheetError } from './errors.js';
import { mappingSource, type Said, said } from './said.js';

/** Refuses a mapping file given as a sheet (`import folder/*`, a `.json` in the inbox). */
export function refuseMappingFile(path: string): void {
  if (!isMappingFile(path)) return;
  throw new SheetError(said('sheets.mappingFile', { file: basename(path) }));
}

/** Columns a note lists at most. */
const LISTED = 12;

/** Which mapping the sheet was read with, and what it mapped (`mapped`: the sheet's own names). */
export function mappingUsed(
  mapping: Mapping,
  mapped: readonly string[],
  words: Words = wordsFor('en'),
): string {
  const parts: string[] = [];
  if (mapped.length > 0) {
    const shown = mapped
      .slice(0, LISTED)
      .map((column) => `"${column}" → ${mapping.columns.get(normaliseHeader(column)) ?? '?'}`);
    if (mapped.length > LISTED) {
      shown.push(words.t('rows.warning.more', { count: mapped.length - LISTED }));
    }
    parts.push(words.t('rows.warning.mappedColumns', { columns: shown.join(', ') }));
  } else if (mapping.columns.size > 0) {
    parts.push(words.t('rows.warning.noMappedColumn'));
  }
  const fields = [...mapping.values.keys()];
  if (fields.length > 0) {
    parts.push(words.t('rows.warning.valueWords', { fields: fields.join(', ') }));
  }
  const described = describeMapping(mapping.source, words);
  const [first, second] = parts;
  if (first === undefined) return words.t('rows.warning.mappingUsed', { mapping: described });
  const what = second === undefined ? first : words.t('rows.warning.both', { first, second });
  return words.t('rows.warning.mappingUsedFor', { mapping: described, what });
}

/** The warning for unknown columns: ignored, and the mapping to write for those that look like a field. */
export function unknownColumns(
  unknown: readonly string[],
  taken: ReadonlySet<SheetField> | ReadonlyMap<SheetField, unknown>,
  mapping: Mapping | undefined,
  words: Words = wordsFor('en'),
): string {
  const one = unknown.length === 1;
  const list = unknown.map((c) => `"${c}"`).join(', ');
  const head = words.t('rows.warning.unknown', { count: unknown.length, list });
  const hinted = lookalikes(unknown, taken);
  if (hinted.length === 0) {
    const target = mappingTarget(mapping, words);
    return words.t('rows.warning.mapIt', { unknown: head, target, example: EXAMPLE });
  }
  const guesses =
    one && hinted.length === 1
      ? hinted.map((l) => l.field).join('')
      : hinted.map((l) => `"${l.column}" → ${l.field}`).join(', ');
  const advice = capitalised(mappingAdvice(hinted, mapping, words));
  return words.t('rows.warning.didYouMean', { unknown: head, guesses, advice });
}

/** A mapping of one column, as advice shows one. */
const EXAMPLE = '{ "columns": { "Straat": "address1" } }';

/**
 * What a CSV sheet's header tells before its rows are read: the mapping it is read with and its
 * unknown columns (warnings), and per field an unknown column looks like, what a row lacking
 * that field is told besides.
 */
export function headerNotes(
  map: HeaderMap,
  mapping: Mapping | undefined,
  words: Words = wordsFor('en'),
): { warnings: string[]; missing: Map<SheetField, string> } {
  const warnings: string[] = [];
  if (mapping !== undefined) {
    const mapped = map.header.filter(
      (column) => column.trim() !== '' && mapping.columns.has(normaliseHeader(column)),
    );
    warnings.push(mappingUsed(mapping, mapped, words));
  }
  if (map.unknown.length > 0) {
    warnings.push(unknownColumns(map.unknown, map.index, mapping, words));
  }
  return { warnings, missing: missingHints(lookalikes(map.unknown, map.index), mapping, words) };
}

/**
 * Per field that an unknown column looks like, what the message asking for that field adds:
 * `; if the column "Gemeente" holds it, add { "columns": { "Gemeente": "city" } } to …`.
 */
function missingHints(
  hinted: readonly Lookalike[],
  mapping: Mapping | undefined,
  words: Words,
): Map<SheetField, string> {
  return new Map(
    hinted.map((l) => [
      l.field,
      words.t('rows.hint.column', {
        column: l.column,
        advice: mappingAdvice([l], mapping, words),
      }),
    ]),
  );
}

/** Why a header that names no order field is refused, with the mapping to write. */
export function noFieldHeader(header: readonly string[], mapping: Mapping | undefined): Said {
  const named = header.filter((name) => name.trim() !== '');
  const shown = named
    .slice(0, 5)
    .map((n) => `"${n}"`)
    .join(', ');
  const head = {
    shown,
    mapped: mapping === undefined ? 'no' : 'yes',
    mapping: mapping === undefined ? '' : mappingSource(mapping.source),
  };
  const hinted = lookalikes(named, new Set());
  if (hinted.length === 0) {
    return said('sheets.header.noField', {
      ...head,
      target: (words: Words) => mappingTarget(mapping, words),
      example: '{ "columns": { "Straat": "address1" } }',
    });
  }
  return said('sheets.header.noFieldHinted', {
    ...head,
    advice: (words: Words) => mappingAdvice(hinted, mapping, words),
  });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
