import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The field table of the provider's documentation (docs/api.md, "Creating one"), read as data so
 * that the sandbox's field list and the client's can each be checked against it, and not against
 * each other.
 */
export interface DocumentedField {
  name: string;
  /** How the field is read: text, a whole number, a 0/1 flag or the product list. */
  kind: 'string' | 'integer' | 'flag' | 'products';
  /** The values it may take, when the documentation lists them. */
  values: string[] | null;
  /** The product categories that make it required, when the documentation names some. */
  categories: string[] | null;
}

const API_DOC = fileURLToPath(new URL('../../docs/api.md', import.meta.url));

/** The table's rows, one per field (a row naming two fields gives two). */
export function documentedFields(text: string = readFileSync(API_DOC, 'utf8')): DocumentedField[] {
  const table = text.split('\n').filter((line) => line.startsWith('| `'));
  if (table.length === 0) throw new Error('docs/api.md has no field table');
  return table.flatMap((line) => {
    const [names = '', kind = '', holds = ''] = line.split('|').slice(1, 4);
    const field = {
      kind: kindOf(kind),
      values: valuesOf(kind, holds),
      categories: categoriesOf(holds),
    };
    return quoted(names).map((name) => ({ name, ...field }));
  });
}

function kindOf(kind: string): DocumentedField['kind'] {
  if (kind.trim() === 'list') return 'products';
  if (kind.includes('0 or 1')) return 'flag';
  if (kind.includes('whole number')) return 'integer';
  return 'string';
}

function valuesOf(kind: string, holds: string): string[] | null {
  if (quoted(kind).length > 0) return quoted(kind);
  return kind.includes('one of a list') ? quoted(holds) : null;
}

function categoriesOf(holds: string): string[] | null {
  const match = /\bcategory ([\d.]+(?:(?:, | or )[\d.]+)*)/.exec(holds);
  return match?.[1] === undefined ? null : match[1].split(/, | or /);
}

function quoted(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

/** What a field list implements of the documentation. */
export interface FieldList {
  fields: ReadonlyArray<readonly [string, string]>;
  enumerations: Readonly<Record<string, readonly string[]>>;
  requiredByCategory: Readonly<Record<string, readonly string[]>>;
}

/** Where a field list departs from the documentation, one line each; empty when it agrees. */
export function driftFromDoc(list: FieldList, doc = documentedFields()): string[] {
  const drift: string[] = [];
  const listed = new Map(list.fields.map(([name, kind]) => [name, kind]));
  for (const field of doc) {
    const kind = listed.get(field.name);
    if (kind === undefined) drift.push(`${field.name}: documented, not listed`);
    else if (kind !== field.kind) {
      drift.push(`${field.name}: listed as ${kind}, documented as ${field.kind}`);
    }
    const values = list.enumerations[field.name];
    if (JSON.stringify(values ?? null) !== JSON.stringify(field.values)) {
      drift.push(
        `${field.name}: values ${JSON.stringify(values)}, documented ${JSON.stringify(field.values)}`,
      );
    }
    const categories = list.requiredByCategory[field.name];
    if (JSON.stringify(categories ?? null) !== JSON.stringify(field.categories)) {
      drift.push(
        `${field.name}: required by ${JSON.stringify(categories)}, documented ${JSON.stringify(field.categories)}`,
      );
    }
  }
  const documented = new Set(doc.map((field) => field.name));
  for (const name of listed.keys()) {
    if (!documented.has(name)) drift.push(`${name}: listed, not documented`);
  }
  for (const name of [...Object.keys(list.enumerations), ...Object.keys(list.requiredByCategory)]) {
    if (!documented.has(name)) drift.push(`${name}: has rules, not documented`);
  }
  return drift;
}
