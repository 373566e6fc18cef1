import { readFile } from 'node:fs/promises';

import { z } from 'zod';
import { jsonMistake } from './json-mistake.js';
import { UserError } from '../errors.js';

/**
 * Order fields that some product categories make required (provider documentation §2.1): an
 * electrical inspection needs the number of breaker boxes, a per-unit product the number of units,
 * a per-floor product the number of floors.
 */
export const CONDITIONAL_FIELDS = {
  breaker_boxes: ['1.1', '1.2', '2.1'],
  units: ['2.3'],
  floors: ['2.4'],
} as const satisfies Record<string, readonly string[]>;

export type ConditionalField = keyof typeof CONDITIONAL_FIELDS;

const BY_CATEGORY = new Map<string, ConditionalField[]>();
for (const [field, categories] of Object.entries(CONDITIONAL_FIELDS)) {
  for (const category of categories) {
    BY_CATEGORY.set(category, [...(BY_CATEGORY.get(category) ?? []), field as ConditionalField]);
  }
}

/** The order fields a product of this category makes required. */
export function conditionalFieldsOf(category: string): readonly ConditionalField[] {
  return BY_CATEGORY.get(category) ?? [];
}

const productSchema = z.object({
  id: z.string().trim().min(1, 'must be a non-empty string'),
  name: z.string().trim().min(1, 'must be a non-empty string'),
  category: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)*$/, 'must look like "1.1" (digits separated by dots)'),
});

export type Product = z.infer<typeof productSchema>;

/** The product catalogue: which products exist and which extra fields each one requires. */
export class Catalogue {
  readonly #byId: ReadonlyMap<string, Product>;
  readonly #byLowerId: ReadonlyMap<string, Product>;
  readonly #byName: ReadonlyMap<string, Product>;

  constructor(readonly products: readonly Product[]) {
    this.#byId = new Map(products.map((p) => [p.id, p]));
    this.#byLowerId = new Map(products.map((p) => [p.id.toLowerCase(), p]));
    this.#byName = new Map(products.map((p) => [nameKey(p.name), p]));
  }

  /** The product with exactly this id (what the API accepts). */
  get(id: string): Product | undefined {
    return this.#byId.get(id);
  }

  /**
   * The product a user meant: the id as written, else ignoring case (`epc` → `EPC`), else its
   * catalogue name, ignoring case and runs of spaces (`elektrische keuring woning bij verkoop
   * (AREI)` → `ELEC-1.1`): people write what they order by the name they know it by.
   */
  find(id: string): Product | undefined {
    return (
      this.#byId.get(id) ?? this.#byLowerId.get(id.toLowerCase()) ?? this.#byName.get(nameKey(id))
    );
  }

  /** The conditional fields the given products require, each with the first product requiring it. */
  requiredFields(productIds: Iterable<string>): Map<ConditionalField, Product> {
    const required = new Map<ConditionalField, Product>();
    for (const id of productIds) {
      const product = this.#byId.get(id);
      if (!product) continue;
      for (const field of conditionalFieldsOf(product.category)) {
        if (!required.has(field)) required.set(field, product);
      }
    }
    return required;
  }
}

/** Validates a parsed catalogue; `source` names where it came from in error messages. */
export function parseCatalogue(json: unknown, source: string): Catalogue {
  const parsed = z.array(productSchema).min(1, 'must list at least one product').safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const entry = issue?.path.length ? issue.path.join('.') : undefined;
    const where = entry === undefined ? 'the file' : `entry ${entry}`;
    const problem = issue?.message ?? 'is invalid';
    // The file's own problems said in words; an entry's is zod's detail, in English.
    const variant =
      entry !== undefined ? 'entry' : issue?.code === 'too_small' ? 'empty' : 'not-list';
    throw new UserError(
      'catalogue.invalid',
      `Product catalogue ${source}: ${where} ${problem}; expected a JSON array of { "id", "name", "category" }.`,
      { variant, values: { source, entry: entry ?? '', problem } },
    );
  }
  const seen = new Set<string>();
  for (const [index, product] of parsed.data.entries()) {
    if (seen.has(product.id)) {
      throw new UserError(
        'catalogue.invalid',
        `Product catalogue ${source}: entry ${index} repeats the product id "${product.id}".`,
        { variant: 'repeated', values: { source, entry: index, id: product.id } },
      );
    }
    seen.add(product.id);
  }
  return new Catalogue(parsed.data);
}

export async function loadCatalogue(file: string): Promise<Catalogue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(
      'catalogue.invalid',
      `Product catalogue ${file} cannot be read: ${(error as Error).message}`,
      { cause: error, variant: 'unreadable', values: { file, reason: (error as Error).message } },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      'catalogue.invalid',
      `Product catalogue ${file} is not valid JSON: ${jsonMistake(text, error)}`,
      { cause: error, variant: 'json', values: { file, mistake: jsonMistake(text, error) } },
    );
  }
  return parseCatalogue(json, file);
}

/** A product name as it is compared: lower case, its spaces trimmed and single. */
function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
