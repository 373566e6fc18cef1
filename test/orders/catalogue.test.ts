import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Catalogue, loadCatalogue, parseCatalogue } from '../../src/orders/catalogue.js';
import { defaultProductsFile } from '../../src/package-root.js';

describe('the sample catalogue', () => {
  it('loads, and covers every conditional category', async () => {
    const catalogue = await loadCatalogue(defaultProductsFile());
    const categories = catalogue.products.map((p) => p.category);
    for (const category of ['1.1', '1.2', '2.1', '2.3', '2.4']) {
      expect(categories).toContain(category);
    }
    expect(catalogue.get('EPC')?.name).toMatch(/EPC/);
    expect(catalogue.get('ELEC-1.1')?.category).toBe('1.1');
  });
});

describe('parseCatalogue', () => {
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
  ])('refuses %j', (json, message) => {
    expect(() => parseCatalogue(json, 'products.json')).toThrow(message);
  });

  it('names the file in its errors', () => {
    expect(() => parseCatalogue(null, '/tmp/mine.json')).toThrow(/\/tmp\/mine\.json/);
  });
});

describe('loadCatalogue', () => {
  it('says when the file is missing or not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'catalogue-'));
    await expect(loadCatalogue(join(dir, 'none.json'))).rejects.toThrow(/cannot be read/);
    await writeFile(join(dir, 'bad.json'), '[{"id":');
    await expect(loadCatalogue(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON/);
  });
});

describe('Catalogue.requiredFields', () => {
  const catalogue = new Catalogue([
    { id: 'E', name: 'Electrical', category: '1.1' },
    { id: 'E2', name: 'Electrical common', category: '2.1' },
    { id: 'U', name: 'Per unit', category: '2.3' },
    { id: 'F', name: 'Per floor', category: '2.4' },
    { id: 'P', name: 'EPC', category: '3.1' },
  ]);

  it('names each required field with the first product that requires it', () => {
    const required = catalogue.requiredFields(['P', 'E', 'E2', 'U']);
    expect([...required.keys()]).toEqual(['breaker_boxes', 'units']);
    expect(required.get('breaker_boxes')?.id).toBe('E');
  });

  it('ignores unknown products', () => {
    expect(catalogue.requiredFields(['X', 'F']).get('floors')?.id).toBe('F');
  });
});
