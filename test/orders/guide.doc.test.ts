import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  CONDITIONAL_FIELDS,
  conditionalFieldsOf,
  parseCatalogue,
} from '../../src/orders/catalogue.js';
import { EXTRA_COLUMNS } from '../../src/orders/columns.js';
import {
  CONTACT_LANGUAGES,
  INVOICE_TO,
  IS_CONTACT_OWNER,
  ORDER_FIELDS,
  PROPERTY_TYPES,
} from '../../src/orders/fields.js';
import { FLAG_WORDS } from '../../src/orders/normalise.js';
import { MAIL_FLAGS, REQUIRED } from '../../src/orders/row.js';
import { defaultProductsFile, packageRoot } from '../../src/package-root.js';

// The guide's "Your sheet" is what a user fills a sheet by: it is held to the code's own lists.
const PRODUCT_IDS = (
  JSON.parse(readFileSync(defaultProductsFile(), 'utf8')) as Array<{ id: string }>
).map((p) => p.id);
const GUIDE = readFileSync(join(packageRoot(), 'docs', 'guide.md'), 'utf8');

/** A `## title` section of the guide, up to the next one. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/guide.md has no "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

const SHEET = section(GUIDE, 'Your sheet');

/** A Markdown table line's cells, `\|` kept inside its cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The field table: each column it names (a line of its own), with what it holds and when required. */
function fieldTable(): Map<string, { holds: string; required: string }> {
  const table = new Map<string, { holds: string; required: string }>();
  for (const line of SHEET.split('\n').filter((l) => l.startsWith('| `'))) {
    const [name = '', holds = '', required = ''] = cells(line);
    const column = /^`([^`]+)`$/.exec(name)?.[1];
    if (column === undefined) throw new Error(`a field table line names no single column: ${line}`);
    if (table.has(column)) throw new Error(`the field table names ${column} twice`);
    table.set(column, { holds, required });
  }
  return table;
}

/** The list item that begins with `- \`field\``, to the next item or paragraph. */
function bullet(field: string): string {
  const start = SHEET.indexOf(`\n- \`${field}\``);
  if (start < 0) throw new Error(`"Your sheet" lists no values for ${field}`);
  const rest = SHEET.slice(start + 1);
  const end = rest.search(/\n(- |\n)/);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The `code` spans of a text. */
function spans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

const ENUMERATIONS: Record<string, readonly string[]> = {
  property_type: PROPERTY_TYPES,
  contact_language: CONTACT_LANGUAGES,
  invoice_to: INVOICE_TO,
  is_contact_owner: IS_CONTACT_OWNER,
};

describe('docs/guide.md "Your sheet"', () => {
  it('has a line for every order field and every other column a sheet may have, and for no other', () => {
    const expected = [...ORDER_FIELDS.map(([name]) => name), ...EXTRA_COLUMNS].sort();
    expect([...fieldTable().keys()].sort()).toEqual(expected);
  });

  it('says in words what each one holds', () => {
    for (const [column, { holds }] of fieldTable()) {
      expect(holds.length, column).toBeGreaterThan(15);
      expect(holds, column).toMatch(/\.$/);
    }
  });

  it('says when each is required, as validation decides it', () => {
    const table = fieldTable();
    const required = (field: string) => table.get(field)?.required ?? '';
    const conditional = Object.keys(CONDITIONAL_FIELDS);
    const mails = MAIL_FLAGS.map(([field]) => field as string);
    for (const [field] of REQUIRED) expect(required(field), field).toMatch(/^always/);
    for (const [field, flag] of MAIL_FLAGS)
      expect(required(field)).toBe(`unless \`${flag}\` is yes`);
    for (const [field, categories] of Object.entries(CONDITIONAL_FIELDS)) {
      const said = required(field).match(/\d+\.\d+/g) ?? [];
      expect(said, field).toEqual([...categories]);
    }
    const always = REQUIRED.map(([field]) => field as string);
    for (const [column] of table) {
      if (!always.includes(column) && !mails.includes(column) && !conditional.includes(column))
        expect(required(column), column).toBe('no');
    }
  });

  it('lists the allowed values of every enumeration, and only those', () => {
    for (const [field, allowed] of Object.entries(ENUMERATIONS)) {
      const listed = spans(bullet(field)).filter((span) => span !== field);
      expect(listed.sort(), field).toEqual([...allowed].sort());
    }
  });

  it('lists the words the mail flags take for yes and no', () => {
    const listed = spans(bullet('no_contact_mail')).filter((s) => !s.startsWith('no_'));
    expect(listed.sort()).toEqual([...FLAG_WORDS.keys()].sort());
  });

  it('lists the sample catalogue, each product with its category and the field it needs', () => {
    const file = defaultProductsFile();
    const catalogue = parseCatalogue(JSON.parse(readFileSync(file, 'utf8')), file);
    const rows = SHEET.split('\n')
      .filter((line) => /^\s+\| `/.test(line))
      .map((line) => cells(line));
    const listed = rows.map(([id = '', , category = '', needs = '']) => ({
      id: id.replaceAll('`', ''),
      category,
      needs: spans(needs),
    }));
    expect(listed).toEqual(
      catalogue.products.map((p) => ({
        id: p.id,
        category: p.category,
        needs: [...conditionalFieldsOf(p.category)],
      })),
    );
  });

  it('has mapping examples, in Dutch and in French, whose columns name fields and whose words name allowed values', () => {
    const examples = [...SHEET.matchAll(/```json\n([\s\S]*?)```/g)].map(
      (m) =>
        JSON.parse(m[1] ?? '') as {
          columns: Record<string, string>;
          values: Record<string, Record<string, string>>;
        },
    );
    expect(examples).toHaveLength(2);
    const fields = new Set<string>([...ORDER_FIELDS.map(([name]) => name), ...EXTRA_COLUMNS]);
    for (const example of examples) {
      for (const target of Object.values(example.columns)) expect(fields).toContain(target);
      // Every required field has a column, so that the example maps a whole sheet.
      for (const [field] of REQUIRED)
        expect(Object.values(example.columns), field).toContain(field);
      for (const [field, words] of Object.entries(example.values)) {
        // Words for products stand for catalogue ids; the others for an enumeration's values.
        const allowed = field === 'order_products' ? PRODUCT_IDS : ENUMERATIONS[field];
        expect(allowed, field).toBeDefined();
        for (const value of Object.values(words)) expect(allowed).toContain(value);
      }
    }
    const [dutch, french] = examples;
    expect(Object.keys(dutch?.columns ?? {})).toContain('Straat');
    expect(Object.keys(french?.columns ?? {})).toContain('Rue');
  });
});
