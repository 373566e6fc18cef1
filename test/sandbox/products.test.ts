import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REQUIRED_BY_CATEGORY } from '../../sandbox/fields.js';
import {
  defaultProductsFile,
  parseProducts,
  ProductsFileError,
  readProductsFile,
} from '../../sandbox/products.js';
import { put, tempDir } from '../helpers/files.js';

describe("the sandbox's products file", () => {
  it('defaults to the sample, which has a product of every category that requires a field', async () => {
    expect(defaultProductsFile()).toMatch(/samples[/\\]products\.json$/);
    const products = await readProductsFile(defaultProductsFile());
    const categories = products.products.map((p) => p.category);
    for (const category of Object.values(REQUIRED_BY_CATEGORY).flat()) {
      expect(categories).toContain(category);
    }
    expect(products.get('ELEC-1.1')?.category).toBe('1.1');
    expect(products.get('elec-1.1')).toBeUndefined(); // the API matches ids as written
  });

  it('finds the package from the built sandbox too, two folders further down', async () => {
    const root = await tempDir('sandbox-package-');
    await put(root, 'package.json', '{}');
    expect(defaultProductsFile(join(root, 'dist', 'sandbox', 'products.js'))).toBe(
      join(root, 'samples', 'products.json'),
    );
  });

  it.each([
    [{}, /expected a JSON array/],
    [[], /at least one product/],
    [[{ id: 'A', name: 'A' }], /entry 0\.category/],
    [[{ id: '', name: 'A', category: '1.1' }], /entry 0\.id must be a non-empty string/],
    [[{ id: 'A', name: 'A', category: 'one' }], /must look like "1.1"/],
    [
      [
        { id: 'A', name: 'A', category: '1.1' },
        { id: 'A', name: 'B', category: '2.1' },
      ],
      /entry 1 repeats the product id "A"/,
    ],
  ])('refuses %j, naming the file', (json, message) => {
    expect(() => parseProducts(json, 'mine.json')).toThrow(message);
    expect(() => parseProducts(json, 'mine.json')).toThrow(/mine\.json/);
  });

  it('says when the file is missing or not JSON, with an error of its own', async () => {
    const dir = await tempDir('sandbox-products-');
    const missing = readProductsFile(join(dir, 'none.json'));
    await expect(missing).rejects.toThrow(ProductsFileError);
    await expect(missing).rejects.toThrow(/Product catalogue .*none\.json cannot be read/);
    const bad = await put(dir, 'bad.json', '[{"id":');
    await expect(readProductsFile(bad)).rejects.toThrow(/is not valid JSON/);
  });
});
