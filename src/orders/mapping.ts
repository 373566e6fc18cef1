/**
 * A user's mapping (docs/design.md §2 "Mapping"): their own column names for order fields
 * (`columns`), their own words for the values of enumerations and yes/no fields (`values`), and
 * the worksheet of a workbook (`worksheet`, kept for workbooks). The flat form
 * `{ "Straat": "address1" }` is `columns` alone. Where a mapping is found: mapping-files.ts.
 */
import { type ColumnMapping, fieldOf, parseMapping, quoted } from './columns.js';
import { lookalikeField } from './header-hints.js';
import { Invalid, normaliseEnum, normaliseFlag, squash } from './normalise.js';
import { UserError } from '../errors.js';
import { type MessageKey, type Words, wordsFor } from '../language/words.js';

/** Where a mapping was found, first found wins: `--mapping`, beside the sheet, connection, config. */
export type MappingKind = 'flag' | 'beside' | 'connection' | 'config';

export interface MappingSource {
  kind: MappingKind;
  /** The file, absolute. */
  file: string;
}

/** The fields whose values a mapping may give synonyms for. */
export const SYNONYM_FIELDS = [
  'property_type',
  'contact_language',
  'invoice_to',
  'is_contact_owner',
  'no_inv_mail',
  'no_contact_mail',
  'order_products',
] as const;
export type SynonymField = (typeof SYNONYM_FIELDS)[number];

/** Per field, the user's words (squashed: case and spaces ignored) → the value each stands for. */
export type ValueSynonyms = ReadonlyMap<SynonymField, ReadonlyMap<string, string | number>>;

export interface Mapping {
  columns: ColumnMapping;
  values: ValueSynonyms;
  worksheet?: string;
  /** Which of the two forms the file is written in: advice to add a column follows it. */
  form: 'flat' | 'full';
  source: MappingSource;
  /** The file's JSON as written (and checked): what travels with a sheet, and what failed/ gets. */
  json: Record<string, unknown>;
}

/** A mapping as it travels with its sheet (journal, Redis): checked again wherever it is read. */
export interface MappingRecord {
  source: MappingSource;
  json: unknown;
}

const PARTS = ['columns', 'values', 'worksheet'];
const MAX_WORKSHEET = 255;

/** How messages name a mapping: its file, and why that one was used. */
export function describeMapping(source: MappingSource, words: Words = wordsFor('en')): string {
  return words.t(MAPPING_KINDS[source.kind], { file: source.file });
}

const MAPPING_KINDS: Record<MappingKind, MessageKey> = {
  flag: 'rows.mapping.flag',
  beside: 'rows.mapping.beside',
  connection: 'rows.mapping.connection',
  config: 'rows.mapping.config',
};

/** Checks a parsed mapping file, either form: a mistake is 'mapping.invalid', naming the file. */
export function parseMappingFile(json: unknown, source: MappingSource): Mapping {
  const where = `Mapping ${source.file}`;
  if (!isObject(json)) {
    throw new UserError(
      'mapping.invalid',
      `${where} must be a JSON object, like { "columns": { "Straat": "address1" } } (or the flat { "Straat": "address1" }).`,
      { variant: 'not-object', values: { file: source.file } },
    );
  }
  if (!isFullForm(json)) {
    const columns = parseMapping(json, source.file, lookalikeField);
    return { columns, values: new Map(), form: 'flat', source, json };
  }
  const stray = Object.keys(json).find((key) => !PARTS.includes(key));
  if (stray !== undefined) {
    throw new UserError(
      'mapping.invalid',
      `${where}: ${quoted(stray)} is not a part of a mapping (those are "columns", "values" and "worksheet"); a column name goes under "columns", like { "columns": { ${quoted(stray)}: "address1" } }.`,
      { variant: 'stray', values: { file: source.file, key: quoted(stray) } },
    );
  }
  const { columns, values, worksheet } = json;
  if (columns !== undefined && !isObject(columns)) {
    throw new UserError(
      'mapping.invalid',
      `${where}: "columns" must be an object of your column names and the fields they hold, like { "Straat": "address1" }.`,
      { variant: 'columns', values: { file: source.file } },
    );
  }
  const mapping: Mapping = {
    columns:
      columns === undefined
        ? new Map()
        : parseMapping(columns, `${source.file} ("columns")`, lookalikeField),
    values: parseValues(values, source.file),
    form: 'full',
    source,
    json,
  };
  if (worksheet !== undefined) mapping.worksheet = parseWorksheet(worksheet, source.file);
  return mapping;
}

/**
 * The full form has a part that the flat form could not hold: a flat `{ "columns": "address1" }`
 * maps a column named "columns".
 */
function isFullForm(json: Record<string, unknown>): boolean {
  return PARTS.some((part) => {
    if (!Object.hasOwn(json, part)) return false;
    const value = json[part];
    return typeof value !== 'string' || fieldOf(value) === undefined;
  });
}

function parseWorksheet(worksheet: unknown, file: string): string {
  if (typeof worksheet !== 'string' || worksheet.trim() === '' || worksheet.length > MAX_WORKSHEET)
    throw new UserError(
      'mapping.invalid',
      `Mapping ${file}: "worksheet" must be the name of a worksheet, as text.`,
      { variant: 'worksheet', values: { file } },
    );
  return worksheet.trim();
}

function parseValues(values: unknown, file: string): ValueSynonyms {
  const where = `Mapping ${file}`;
  const parsed = new Map<SynonymField, ReadonlyMap<string, string | number>>();
  if (values === undefined) return parsed;
  if (!isObject(values)) {
    throw new UserError(
      'mapping.invalid',
      `${where}: "values" must be an object of fields and your words for their values, like { "contact_language": { "Nederlands": "nl" } }.`,
      { variant: 'values', values: { file } },
    );
  }
  for (const [name, words] of Object.entries(values)) {
    const field = synonymField(name, file);
    if (parsed.has(field)) {
      throw new UserError(
        'mapping.invalid',
        `${where}: "values" gives ${field} twice; keep one of them.`,
        { variant: 'values-twice', values: { file, field } },
      );
    }
    parsed.set(field, parseWords(field, name, words, file));
  }
  return parsed;
}

function synonymField(name: string, file: string): SynonymField {
  const field = fieldOf(name);
  const known = SYNONYM_FIELDS.find((f) => f === field);
  if (known !== undefined) return known;
  const what = field === undefined ? 'is not an order field' : 'takes no value synonyms';
  throw new UserError(
    'mapping.invalid',
    `Mapping ${file}: "values" names ${quoted(name)}, which ${what}; synonyms are for ${SYNONYM_FIELDS.join(', ')}.`,
    {
      variant: 'values-field',
      values: {
        file,
        name: quoted(name),
        known: field === undefined ? 'no' : 'yes',
        fields: SYNONYM_FIELDS.join(', '),
      },
    },
  );
}

const NOT_A_VALUE = new Invalid('rows.value.notText');

/**
 * What a word for products stands for: a product id, checked against the catalogue when a row
 * uses it (a mapping is read without one), so only its shape here.
 */
function productId(value: unknown): string | Invalid {
  const id = typeof value === 'string' ? value.trim() : '';
  return id === '' || /[|,;:]/.test(id) ? NOT_A_VALUE : id;
}

function parseWords(
  field: SynonymField,
  name: string,
  words: unknown,
  file: string,
): ReadonlyMap<string, string | number> {
  const at = `Mapping ${file}: "values".${quoted(name)}`;
  const of = { file, name: quoted(name) };
  if (!isObject(words)) {
    throw new UserError(
      'mapping.invalid',
      `${at} must be an object of your words and the values they stand for, like { "Nederlands": "nl" }.`,
      { variant: 'words', values: of },
    );
  }
  const normalise =
    field === 'order_products'
      ? productId
      : field === 'no_inv_mail' || field === 'no_contact_mail'
        ? normaliseFlag
        : normaliseEnum[field];
  const synonyms = new Map<string, string | number>();
  for (const [word, target] of Object.entries(words)) {
    const key = squash(word);
    if (key === '')
      throw new UserError(
        'mapping.invalid',
        `${at} has an empty word; give the word as the sheet writes it.`,
        { variant: 'empty-word', values: of },
      );
    const scalar =
      typeof target === 'string' || typeof target === 'number' || typeof target === 'boolean';
    const value = scalar ? normalise(target) : NOT_A_VALUE;
    if (value instanceof Invalid) {
      const problem = value.text(wordsFor('en'));
      throw new UserError(
        'mapping.invalid',
        `${at} maps ${quoted(word)} to ${quoted(target)}, which ${field} does not allow: it ${problem}.`,
        {
          variant: 'not-allowed',
          values: {
            ...of,
            word: quoted(word),
            target: quoted(target),
            field,
            problem,
          },
        },
      );
    }
    const earlier = synonyms.get(key);
    if (earlier !== undefined && earlier !== value) {
      throw new UserError(
        'mapping.invalid',
        `${at} gives ${quoted(word)} twice (case and spaces are ignored), for two values; keep one of them.`,
        { variant: 'word-twice', values: { ...of, word: quoted(word) } },
      );
    }
    synonyms.set(key, value);
  }
  return synonyms;
}

/** The mapping as it is stored with its sheet (see MappingRecord). */
export function mappingRecord(mapping: Mapping): MappingRecord {
  return { source: mapping.source, json: mapping.json };
}

/** A stored mapping read back (`where`: whose, for the error), checked again as any outside input is. */
export function mappingFromRecord(record: unknown, where: string): Mapping {
  if (!isObject(record) || !isObject(record.source)) {
    throw new UserError('mapping.invalid', `the mapping stored for ${where} cannot be read.`);
  }
  const { kind, file } = record.source;
  const kinds: readonly unknown[] = ['flag', 'beside', 'connection', 'config'];
  if (!kinds.includes(kind) || typeof file !== 'string') {
    throw new UserError(
      'mapping.invalid',
      `the mapping stored for ${where} does not say where it came from.`,
    );
  }
  return parseMappingFile(record.json, { kind: kind as MappingKind, file });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
