/**
 * From a sheet's own column names to the order fields they hold: API names matched trimmed and
 * case-insensitively, plus the `columns` of a user's mapping (`{ "Straat": "address1" }`, read
 * by mapping.ts).
 */
import { ORDER_FIELDS } from './fields.js';
import { UserError } from '../errors.js';

/** Columns a sheet may have besides the order fields. */
/** `order_id`: an order that already exists (a row dropped back from a report's failed/ folder). */
export const EXTRA_COLUMNS = ['reference', 'files', 'order_id'] as const;

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

/**
 * The column failed/ gives each row: its number in the sheet first imported, which the report of
 * a sheet dropped back from failed/ echoes (and its own failed/ keeps), so that a row is found
 * again under the number the user first saw.
 */
export const SOURCE_ROW = 'source_row';

/**
 * A row's `source_row` as the row number it must be (`7`, or 7 in JSON), else '': the column
 * comes from the sheet, and a number never given there (`-5`, `=1+1`, twenty digits) is no
 * number of the sheet first imported.
 */
export function sourceRowNumber(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const trimmed = text.trim();
  return /^[1-9][0-9]{0,9}$/.test(trimmed) && Number(trimmed) <= Number.MAX_SAFE_INTEGER
    ? trimmed
    : '';
}

/**
 * The column failed/ gives each row beside `source_row`: the id of the sheet that number is of,
 * so that a sheet dropped back is known as the fix of that sheet (report/fix-claims.ts). A cell,
 * not the file's name: it survives renaming, Excel saving the file again, and rows copied into
 * another sheet.
 */
export const SOURCE_SHEET = 'source_sheet';

/**
 * A row's `source_sheet` as a sheet id may be written (`20261126-101502-3fa9c1`), else '': the
 * cell comes from the sheet, and is trusted for nothing until the store knows that sheet.
 */
export function sourceSheetId(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(text) ? text : '';
}

/**
 * Columns the importer's own reports add (`failed.csv` has `error`, `source_row` and
 * `source_sheet`): a sheet dropped back from failed/ carries them, and they are ignored without a
 * warning.
 */
const REPORT_COLUMNS = new Set(['error', SOURCE_ROW, SOURCE_SHEET]);

/** A user's own column names for fields, normalised (trimmed, lower case). */
export type ColumnMapping = ReadonlyMap<string, SheetField>;

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

/**
 * Checks a mapping's columns (`source` names them in errors): each naming a known field.
 * `suggest` names the field a target that is none looks like.
 */
export function parseMapping(
  json: unknown,
  source: string,
  suggest: (target: string) => string | undefined = () => undefined,
): ColumnMapping {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new UserError(
      'mapping.invalid',
      `Mapping ${source} must be a JSON object like { "Straat": "address1" }.`,
      { variant: 'flat-not-object', values: { file: source } },
    );
  }
  const mapping = new Map<string, SheetField>();
  for (const [column, target] of Object.entries(json)) {
    const field = typeof target === 'string' ? KNOWN.get(normaliseHeader(target)) : undefined;
    if (field === undefined) {
      const like = typeof target === 'string' ? suggest(target) : undefined;
      const hint = like === undefined ? 'use one of' : `did you mean ${like}? The fields are`;
      throw new UserError(
        'mapping.invalid',
        `Mapping ${source}: ${quoted(column)} maps to ${quoted(target)}, which is not an order field; ${hint} ${[...new Set(KNOWN.values())].join(', ')}.`,
        {
          variant: 'not-field',
          values: {
            file: source,
            column: quoted(column),
            target: quoted(target),
            like: like ?? 'none',
            fields: [...new Set(KNOWN.values())].join(', '),
          },
        },
      );
    }
    const key = normaliseHeader(column);
    if (mapping.has(key)) {
      throw new UserError(
        'mapping.invalid',
        `Mapping ${source}: the column ${quoted(column)} is mapped twice.`,
        { variant: 'mapped-twice', values: { file: source, column: quoted(column) } },
      );
    }
    mapping.set(key, field);
  }
  return mapping;
}

/** A value of a mapping as its errors quote it: JSON, and short (a mapping may be anything). */
export function quoted(value: unknown): string {
  // JSON.stringify gives undefined for what JSON cannot hold (a mapping read back holds none).
  const text = (JSON.stringify(value) as string | undefined) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** How the columns of a CSV header map to fields. */
export interface HeaderMap {
  header: readonly string[];
  /** Column position of each field the sheet has. */
  index: ReadonlyMap<SheetField, number>;
  unknown: string[];
  /** Positions of columns without a name (their cells must be empty, or they are reported). */
  nameless: number[];
  /** The column position of each order field, in ORDER_FIELDS' order; -1 where there is none. */
  orderPositions: Int32Array;
}

/**
 * Maps a CSV header. Two columns that give the same field make the sheet ambiguous: refused,
 * with both names, rather than one silently winning.
 */
export function mapHeader(header: readonly string[], mapping?: ColumnMapping): HeaderMap {
  const index = new Map<SheetField, number>();
  const unknown: string[] = [];
  const nameless: number[] = [];
  header.forEach((column, position) => {
    const field = fieldOf(column, mapping);
    if (field === undefined) {
      if (column.trim() === '') nameless.push(position);
      else if (!REPORT_COLUMNS.has(normaliseHeader(column))) unknown.push(column);
      return;
    }
    const earlier = index.get(field);
    if (earlier !== undefined) {
      throw new UserError(
        'mapping.invalid',
        `the columns "${header[earlier] ?? ''}" and "${column}" both give ${field}; keep one of them.`,
        {
          variant: 'both-give',
          values: { first: header[earlier] ?? '', second: column, field },
        },
      );
    }
    index.set(field, position);
  });
  const orderPositions = Int32Array.from(ORDER_FIELDS, ([field]) => index.get(field) ?? -1);
  return { header, index, unknown, nameless, orderPositions };
}

/** Excel's name for a column position: 0 → A, 26 → AA. */
export function columnLetter(position: number): string {
  let letters = '';
  for (let n = position + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** The cells of one row, by field: all that a row's validation reads. */
export interface Cells {
  /** The field's value as written; undefined when the row has no such cell. */
  value(field: SheetField): unknown;
  /** The column holding the field, as the sheet names it; undefined when the sheet has none. */
  column(field: SheetField): string | undefined;
  /**
   * Each order field's value, in ORDER_FIELDS' order, written into `into`: what validation reads
   * of every row, in one call rather than a lookup by name per field.
   */
  orderValues(into: unknown[]): void;
}

/** A CSV record read through its header's map: nothing is copied per row. */
export class CsvCells implements Cells {
  constructor(
    private readonly map: HeaderMap,
    private readonly values: readonly string[],
  ) {}

  value(field: SheetField): string | undefined {
    const position = this.map.index.get(field);
    return position === undefined ? undefined : this.values[position];
  }

  column(field: SheetField): string | undefined {
    const position = this.map.index.get(field);
    return position === undefined ? undefined : this.map.header[position];
  }

  orderValues(into: unknown[]): void {
    const positions = this.map.orderPositions;
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i] ?? -1;
      into[i] = position === -1 ? undefined : this.values[position];
    }
  }

  /** Whether a column without a name holds something in this row. */
  namelessData(): boolean {
    return this.map.nameless.some((position) => (this.values[position] ?? '').trim() !== '');
  }

  /** Non-empty cells past the header's width: data that no column name claims. */
  extra(): number {
    let extra = 0;
    for (let i = this.map.header.length; i < this.values.length; i++) {
      if ((this.values[i] ?? '').trim() !== '') extra += 1;
    }
    return extra;
  }
}

/** The cells of a JSON object, by field. */
export class ObjectCells implements Cells {
  readonly #cells = new Map<SheetField, { value: unknown; column: string }>();
  /** Keys that give a field another key already gave. */
  readonly clashes: Array<{ first: string; second: string; field: SheetField }> = [];

  /**
   * `unknown` collects the keys no field claims, and `seen` the fields given and the keys the
   * mapping claimed, for the sheet's warnings.
   */
  constructor(
    object: Record<string, unknown>,
    mapping: ColumnMapping | undefined,
    unknown: Set<string>,
    seen?: { fields: Set<SheetField>; mapped: Set<string> },
  ) {
    for (const [key, value] of Object.entries(object)) {
      const field = fieldOf(key, mapping);
      if (field === undefined) {
        if (!REPORT_COLUMNS.has(normaliseHeader(key))) unknown.add(key);
        continue;
      }
      if (seen !== undefined) {
        seen.fields.add(field);
        if (mapping?.has(normaliseHeader(key))) seen.mapped.add(key);
      }
      const earlier = this.#cells.get(field);
      if (earlier !== undefined) {
        this.clashes.push({ first: earlier.column, second: key, field });
        continue;
      }
      this.#cells.set(field, { value, column: key });
    }
  }

  value(field: SheetField): unknown {
    return this.#cells.get(field)?.value;
  }

  column(field: SheetField): string | undefined {
    return this.#cells.get(field)?.column;
  }

  orderValues(into: unknown[]): void {
    for (let i = 0; i < ORDER_FIELDS.length; i++) {
      into[i] = this.#cells.get((ORDER_FIELDS[i] as (typeof ORDER_FIELDS)[number])[0])?.value;
    }
  }
}
