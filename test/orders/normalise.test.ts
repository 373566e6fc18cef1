import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { Catalogue } from '../../src/orders/catalogue.js';
import {
  Invalid,
  isAbsent,
  normaliseEnum,
  normaliseFiles,
  normaliseFlag,
  normaliseInteger,
  normaliseLongText,
  normaliseProducts,
  normaliseText,
  shown,
} from '../../src/orders/normalise.js';

const english = wordsFor('en');
const message = (result: unknown) => (result instanceof Invalid ? result.text(english) : null);

describe('isAbsent', () => {
  it.each([[undefined], [null], [''], ['  \t ']])('%j is absent', (value) => {
    expect(isAbsent(value)).toBe(true);
  });
  it.each([['x'], [0], [false], [[]]])('%j is given', (value) => {
    expect(isAbsent(value)).toBe(false);
  });
});

describe('normaliseText', () => {
  it.each([
    ['  Gent  ', 'Gent'],
    [9000, '9000'],
    ['Liège', 'Liège'],
  ])('%j → %j', (value, text) => {
    expect(normaliseText(value)).toBe(text);
  });

  it.each([[true], [{}], [['x']], [Number.NaN]])('refuses %j', (value) => {
    expect(message(normaliseText(value))).toBe('must be text');
  });

  it('counts characters, not bytes, against the limit of 255', () => {
    expect(normaliseText('é'.repeat(255))).toBe('é'.repeat(255));
    expect(message(normaliseText('x'.repeat(256)))).toBe('is longer than 255 characters');
    expect(normaliseLongText('x'.repeat(5000))).toHaveLength(5000);
  });
});

describe('normaliseInteger', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['+3', 3],
    [0, 0],
    [140, 140],
    ['0012', 12],
  ])('%j → %d', (value, n) => {
    expect(normaliseInteger(value, 0)).toBe(n);
  });

  it.each([['12.5'], ['1,5'], ['85 m²'], ['-1'], [2.5], [true], ['']])('refuses %j', (value) => {
    expect(message(normaliseInteger(value, 0))).toBe('must be a whole number');
  });

  it('says the minimum', () => {
    expect(message(normaliseInteger('0', 1))).toBe('must be at least 1');
  });
});

describe('normaliseFlag', () => {
  it.each([
    [1, 1],
    ['1', 1],
    [true, 1],
    ['true', 1],
    ['Yes', 1],
    ['ja', 1],
    ['J', 1],
    ['oui', 1],
    [0, 0],
    ['0', 0],
    [false, 0],
    ['FALSE', 0],
    ['no', 0],
    ['Nee', 0],
    ['non', 0],
    [' n ', 0],
  ])('%j → %d', (value, flag) => {
    expect(normaliseFlag(value)).toBe(flag);
  });

  it.each([['maybe'], [2], ['10'], [[]], [null]])('refuses %j', (value) => {
    expect(message(normaliseFlag(value))).toMatch(/^must be yes or no/);
  });
});

describe('normaliseEnum', () => {
  it.each([
    ['property_type', 'studio/appartement', 'Studio / Appartement'],
    ['property_type', ' RIJWONING  /  duplex ', 'Rijwoning / Duplex'],
    ['property_type', 'halfopenbebouwing', 'Halfopen bebouwing'],
    ['contact_language', 'NL', 'nl'],
    ['contact_language', ' fr ', 'fr'],
    ['invoice_to', 'Salesman', 'salesman'],
    ['is_contact_owner', 'YES', 'yes'],
  ] as const)('%s: %j → %j', (field, value, canonical) => {
    expect(normaliseEnum[field](value)).toBe(canonical);
  });

  it.each([
    ['property_type', 'Kasteel'],
    ['contact_language', 'de'],
    ['invoice_to', 'owner'],
    ['is_contact_owner', true],
  ] as const)('%s refuses %j and lists the choices', (field, value) => {
    expect(message(normaliseEnum[field](value))).toMatch(/^must be one of "/);
  });

  it('says what the values of invoice_to and is_contact_owner mean: "yes" is not "the contact is the owner"', () => {
    expect(message(normaliseEnum.is_contact_owner('ja'))).toBe(
      'must be one of "contact" (the contact person), "yes" (you, the API user), "other" (someone else)',
    );
    expect(message(normaliseEnum.invoice_to('verkoper'))).toMatch(
      /"salesman" \(you, the API user\)/,
    );
    expect(message(normaliseEnum.contact_language('de'))).toBe('must be one of "nl", "en", "fr"');
  });
});

describe('normaliseProducts', () => {
  const catalogue = new Catalogue([
    { id: 'EPC', name: 'EPC', category: '3.1' },
    { id: 'ELEC-1.1', name: 'Electrical', category: '1.1' },
  ]);
  const products = (value: unknown) => normaliseProducts(value, catalogue);

  it('takes a product written by its catalogue name, as its id (docs/design.md "Mapping")', () => {
    const named = new Catalogue([
      { id: 'ELEC-1.1', name: 'Elektrische keuring woning bij verkoop (AREI)', category: '1.1' },
      { id: 'EPC', name: 'EPC residentieel', category: '3.1' },
    ]);
    expect(
      normaliseProducts(
        'elektrische keuring  woning bij verkoop (AREI):2 | EPC residentieel',
        named,
      ),
    ).toEqual([
      { id: 'ELEC-1.1', quantity: 2 },
      { id: 'EPC', quantity: 1 },
    ]);
    expect(normaliseProducts([{ id: 'EPC residentieel', quantity: 1 }], named)).toEqual([
      { id: 'EPC', quantity: 1 },
    ]);
  });

  const messages = (value: unknown) =>
    (products(value) as Invalid[]).map((p) => p.text(english, { column: 'order_products' }));

  it.each([
    ['EPC', [{ id: 'EPC', quantity: 1 }]],
    [
      'EPC:2|ELEC-1.1',
      [
        { id: 'EPC', quantity: 2 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    [
      ' epc : 3 | elec-1.1 ',
      [
        { id: 'EPC', quantity: 3 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    [
      'EPC, ELEC-1.1',
      [
        { id: 'EPC', quantity: 1 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    [
      'EPC;ELEC-1.1:1',
      [
        { id: 'EPC', quantity: 1 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    ['EPC||', [{ id: 'EPC', quantity: 1 }]],
    [[{ id: 'EPC', quantity: 2 }], [{ id: 'EPC', quantity: 2 }]],
    [
      [{ id: 'EPC', quantity: '2' }, { id: 'elec-1.1' }],
      [
        { id: 'EPC', quantity: 2 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    [
      ['EPC:2', 'ELEC-1.1'],
      [
        { id: 'EPC', quantity: 2 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
    ],
    [[], []],
  ])('%j', (value, expected) => {
    expect(products(value)).toEqual(expected);
  });

  it('names every bad item', () => {
    expect(messages('EPX|EPC:0|ELEC-1.1:two')).toEqual([
      'order_products names an unknown product "EPX" (known: EPC, ELEC-1.1).',
      'the quantity of EPC in order_products must be at least 1 (got "0").',
      'the quantity of ELEC-1.1 in order_products must be a whole number (got "two").',
    ]);
    expect(messages([{ quantity: 1 }, 5])).toEqual([
      'order_products has "{"quantity":1}", which is not a product: write ID or ID:QUANTITY.',
      'order_products has "5", which is not a product: write ID or ID:QUANTITY.',
    ]);
  });
});

describe('normaliseFiles', () => {
  it.each([
    ['a.pdf', ['a.pdf']],
    [' plans\\a.pdf | photos/b.jpg |', ['plans/a.pdf', 'photos/b.jpg']],
    [
      ['x/y.pdf', ' z.pdf '],
      ['x/y.pdf', 'z.pdf'],
    ],
  ])('%j → %j', (value, paths) => {
    expect(normaliseFiles(value)).toEqual(paths);
  });

  it.each([[5], [[1]], [{ path: 'a' }]])('refuses %j', (value) => {
    expect(message(normaliseFiles(value))).toMatch(/must be file paths/);
  });
});

describe('shown', () => {
  it('quotes and shortens', () => {
    expect(shown('abc')).toBe('"abc"');
    expect(shown(12)).toBe('"12"');
    expect(shown('x'.repeat(100))).toBe(`"${'x'.repeat(57)}…"`);
  });
});
