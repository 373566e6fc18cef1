/**
 * From a sheet's own column names to the order fields they hold: API names matched trimmed and
 * case-insensitively, plus a user's mapping file (`{ "Straat": "address1" }`).
 */
import { readFile } from 'node:fs/promises';

import { ORDER_FIELDS } from '../orders/fields.js';

/** Columns a sheet may have besides the order fields. */
export const EXTRA_COLUMNS = ['reference', 'files'] as const;

export type SheetField = (typeof ORDER_FIELDS)[number][0] | (typeof EXTRA_COLUMNS)[number];

/** Every field a sheet column can hold, by its lower-case name. */
const KNOWN = new Map<string, SheetField>(
  [...ORDER_FIELDS.map(([name]) => name), ...EXTRA_COLUMNS].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);
// The retrieve answer spells it this way too; a sheet exported from it should still import.
KNOWN.set('key_pickup_location', 'keyPickup_location');

/** A user's own column names for fields, normalised (trimmed, lower case). */
export type ColumnMapping = ReadonlyMap<string, SheetField>;

export class MappingError extends Error {
  override name = 'MappingError';
}

export function normaliseHeader(name: string): string {
  return name.trim().toLowerCase();
}

/** The field a column holds, or undefined for a column the importer does not know. */
export function fieldOf(
  column: string,
  mapping: ColumnMapping = new Map(),
): SheetField | undefined {
  const key = normaliseHeader(column);
  return mapping.get(key) ?? KNOWN.get(key);
}

/** Checks a parsed mapping file: string keys, each naming a known field. */
export function parseMapping(json: unknown, source: string): ColumnMapping {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new MappingError(
      `Column mapping ${source} must be a JSON object like { "Straat": "address1" }.`,
    );
  }
  const mapping = new Map<string, SheetField>();
  for (const [column, target] of Object.entries(json)) {
    const field = typeof target === 'string' ? KNOWN.get(normaliseHeader(target)) : undefined;
    if (field === undefined) {
      throw new MappingError(
        `Column mapping ${source}: "${column}" maps to ${JSON.stringify(target)}, which is not an order field; use one of ${[...KNOWN.values()].filter((v, i, a) => a.indexOf(v) === i).join(', ')}.`,
      );
    }
    const key = normaliseHeader(column);
    if (mapping.has(key)) {
      throw new MappingError(`Column mapping ${source}: the column "${column}" is mapped twice.`);
    }
    mapping.set(key, field);
  }
  return mapping;
}

export async function loadMapping(file: string): Promise<ColumnMapping> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new MappingError(
      `Column mapping ${file} cannot be read as JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return parseMapping(json, file);
}

/** How the columns of a CSV header map to fields. */
export interface HeaderMap {
  /** Field of each column, by position; undefined for unknown columns. */
  fields: Array<SheetField | undefined>;
  unknown: string[];
}

/**
 * Maps a CSV header. Two columns that give the same field make the sheet ambiguous: refused,
 * with both names, rather than one silently winning.
 */
export function mapHeader(header: readonly string[], mapping?: ColumnMapping): HeaderMap {
  const fields = header.map((column) => fieldOf(column, mapping));
  const seen = new Map<SheetField, string>();
  fields.forEach((field, index) => {
    if (field === undefined) return;
    const column = header[index] ?? '';
    const earlier = seen.get(field);
    if (earlier !== undefined) {
      throw new MappingError(
        `the columns "${earlier}" and "${column}" both give ${field}; keep one of them.`,
      );
    }
    seen.set(field, column);
  });
  const unknown = header.filter(
    (column, index) => fields[index] === undefined && column.trim() !== '',
  );
  return { fields, unknown };
}

/** One mapped cell: its value as written and the column it came from (for messages). */
export interface Cell {
  value: unknown;
  column: string;
}

export type Cells = Map<SheetField, Cell>;

/** The cells of a CSV record, by field. Cells past the header's width are reported, not lost. */
export function csvCells(
  values: readonly string[],
  header: readonly string[],
  map: HeaderMap,
): {
  cells: Cells;
  extra: number;
} {
  const cells: Cells = new Map();
  const width = Math.min(values.length, header.length);
  for (let i = 0; i < width; i++) {
    const field = map.fields[i];
    if (field !== undefined) cells.set(field, { value: values[i], column: header[i] ?? field });
  }
  const extra = values.slice(header.length).filter((v) => v.trim() !== '').length;
  return { cells, extra };
}

/** The cells of a JSON object, by field; `unknown` collects keys no field claims. */
export function objectCells(
  object: Record<string, unknown>,
  mapping: ColumnMapping | undefined,
  unknown: Set<string>,
): { cells: Cells; clashes: string[] } {
  const cells: Cells = new Map();
  const clashes: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const field = fieldOf(key, mapping);
    if (field === undefined) {
      unknown.add(key);
      continue;
    }
    const earlier = cells.get(field);
    if (earlier !== undefined) {
      clashes.push(`"${earlier.column}" and "${key}" both give ${field}; keep one of them.`);
      continue;
    }
    cells.set(field, { value, column: key });
  }
  return { cells, clashes };
}
