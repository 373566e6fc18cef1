import { describe, expect, it } from 'vitest';

import {
  lookalikeField,
  lookalikes,
  mappingAdvice,
  plainName,
} from '../../src/orders/header-hints.js';
import { parseMappingFile } from '../../src/orders/mapping.js';

describe('plainName', () => {
  it.each([
    ['Code postal', 'codepostal'],
    ['code_postal', 'codepostal'],
    ['Code-Postal', 'codepostal'],
    ['Référence', 'reference'],
    ['  E-mail ', 'email'],
    ['Tél.', 'tel'],
  ])('%j → %j', (name, plain) => {
    expect(plainName(name)).toBe(plain);
  });
});

describe('lookalikeField', () => {
  it.each([
    // The API name written otherwise.
    ['Postal Code', 'postal_code'],
    ['postal-code', 'postal_code'],
    ['Contact E-mail', 'contact_email'],
    ['KEY PICKUP LOCATION', 'keyPickup_location'],
    // Words of Dutch, French and English sheets.
    ['Postcode', 'postal_code'],
    ['Code postal', 'postal_code'],
    ['Straat', 'address1'],
    ['Rue', 'address1'],
    ['Adresse', 'address1'],
    ['Huisnummer', 'address2'],
    ['Gemeente', 'city'],
    ['Stad', 'city'],
    ['Ville', 'city'],
    ['Localité', 'city'],
    ['Taal', 'contact_language'],
    ['Langue', 'contact_language'],
    ['E-mail', 'contact_email'],
    ['Telefoon', 'contact_phone1'],
    ['Opmerking', 'remark'],
    ['BTW-nummer', 'inv_vat'],
    ['Factuur aan', 'invoice_to'],
    ['Producten', 'order_products'],
    ['Bijlagen', 'files'],
    ['Referentie', 'reference'],
    // Typos.
    ['contact_emial', 'contact_email'],
    ['adress1', 'address1'],
    ['Gemeete', 'city'],
    ['postalcod', 'postal_code'],
    // Nothing like a field.
    ['Agent', undefined],
    ['Makelaar', undefined],
    ['', undefined],
    ['x'.repeat(500), undefined],
    ['nr2', undefined],
  ])('%j → %j', (column, field) => {
    expect(lookalikeField(column)).toBe(field);
  });
});

describe('lookalikes', () => {
  it('hints each field once, and none that another column gives', () => {
    expect(
      lookalikes(['Straat', 'Adres', 'Gemeente', 'Agent', 'Postcode'], new Set(['postal_code'])),
    ).toEqual([
      { column: 'Straat', field: 'address1' },
      { column: 'Gemeente', field: 'city' },
    ]);
  });
});

describe('mappingAdvice', () => {
  const pairs = [
    { column: 'Postcode', field: 'postal_code' as const },
    { column: ' Straat ', field: 'address1' as const },
  ];

  it('writes the full form into a mapping.json beside the sheet when there is no mapping', () => {
    expect(mappingAdvice(pairs, undefined)).toBe(
      'add { "columns": { "Postcode": "postal_code", "Straat": "address1" } } to a mapping.json beside the sheet',
    );
  });

  it('follows the form of the mapping in use, and names its file', () => {
    const flat = parseMappingFile({ Gemeente: 'city' }, { kind: 'flag', file: '/m/flat.json' });
    expect(mappingAdvice(pairs, flat)).toBe(
      'add "Postcode": "postal_code", "Straat": "address1" to /m/flat.json',
    );
    const full = parseMappingFile({ columns: {} }, { kind: 'config', file: '/m/full.json' });
    expect(mappingAdvice(pairs.slice(0, 1), full)).toBe(
      'add "Postcode": "postal_code" to "columns" in /m/full.json',
    );
  });

  it('quotes a column as JSON', () => {
    expect(mappingAdvice([{ column: 'Post"code', field: 'postal_code' }], undefined)).toContain(
      '{ "Post\\"code": "postal_code" }',
    );
  });
});
