/**
 * The products the sandbox knows, read from a products file (a JSON array of `{ id, name,
 * category }`, what the documentation says of a product). The sandbox needs only the ids it
 * accepts, the name an inspection carries and the category that makes a field required.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

const productSchema = z.object({
  id: z.string().trim().min(1, 'must be a non-empty string'),
  name: z.string().trim().min(1, 'must be a non-empty string'),
  category: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)*$/, 'must look like "1.1" (digits separated by dots)'),
});

export type SandboxProduct = z.infer<typeof productSchema>;

/** What `buildSandbox` takes: anything listing products (a client's catalogue fits too). */
export interface ProductSource {
  readonly products: readonly SandboxProduct[];
}

/** The products by id, as the sandbox looks them up. */
export class ProductList implements ProductSource {
  readonly #byId: ReadonlyMap<string, SandboxProduct>;

  constructor(readonly products: readonly SandboxProduct[]) {
    this.#byId = new Map(products.map((p) => [p.id, p]));
  }

  /** The product with exactly this id: the API matches ids as written. */
  get(id: string): SandboxProduct | undefined {
    return this.#byId.get(id);
  }
}

/** Why a products file cannot be used; the message names the file and the bad entry. */
export class ProductsFileError extends Error {
  override name = 'ProductsFileError';
}

/**
 * The sample products file shipped with the package. The sandbox runs from `sandbox/` (tests)
 * and from `dist/sandbox/` (the built CLI), so it walks up to the package's manifest.
 */
export function defaultProductsFile(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return join(dir, 'samples', 'products.json');
}

/** Reads and checks a products file. */
export async function readProductsFile(file: string): Promise<ProductList> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ProductsFileError(
      `Product catalogue ${file} cannot be read: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ProductsFileError(`Product catalogue ${file} is not valid JSON: ${error.message}`, {
      cause: error,
    });
  }
  return parseProducts(json, file);
}

/** Checks parsed products; `source` names where they came from in error messages. */
export function parseProducts(json: unknown, source: string): ProductList {
  const parsed = z.array(productSchema).min(1, 'must list at least one product').safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `entry ${issue.path.join('.')}` : 'the file';
    throw new ProductsFileError(
      `Product catalogue ${source}: ${where} ${issue?.message ?? 'is invalid'}; expected a JSON array of { "id", "name", "category" }.`,
    );
  }
  const seen = new Set<string>();
  for (const [index, product] of parsed.data.entries()) {
    if (seen.has(product.id)) {
      throw new ProductsFileError(
        `Product catalogue ${source}: entry ${index} repeats the product id "${product.id}".`,
      );
    }
    seen.add(product.id);
  }
  return new ProductList(parsed.data);
}
