import { describe, expect, it } from 'vitest';

import {
  columnLetter,
  CsvCells,
  fieldOf,
  mapHeader,
  ObjectCells,
  parseMapping,
} from '../../src/orders/columns.js';
import { knownError } from '../helpers/known-error.js';

describe('fieldOf', () => {
  it.each([
    ['city', 'city'],
    ['  City ', 'city'],
    ['KEYPICKUP_LOCATION', 'keyPickup_location'],
    ['key_pickup_location', 'keyPickup_location'],
    ['Reference', 'reference'],
    ['files', 'files'],
    ['Order_Products', 'order_products'],
    ['Straat', undefined],
    ['', undefined],
  ])('%j → %j', (column, field) => {
    expect(fieldOf(column)).toBe(field);
  });

  it('uses the mapping first, matched the same way', () => {
    const mapping = parseMapping({ ' Straat ': 'address1', Gemeente: 'CITY' }, 'm.json');
    expect(fieldOf('straat', mapping)).toBe('address1');
    expect(fieldOf('GEMEENTE', mapping)).toBe('city');
    expect(fieldOf('city', mapping)).toBe('city');
  });
});

describe('parseMapping', () => {
  it.each([
    [[], /must be a JSON object/],
    [
      { Straat: 'street' },
      /"Straat" maps to "street", which is not an order field; use one of property_type, /,
    ],
    [{ Straat: 5 }, /maps to 5/],
    [{ Straat: 'address1', straat: 'address2' }, /the column "straat" is mapped twice/],
  ])('refuses %j', (json, message) => {
    expect(() => parseMapping(json, 'mapping.json')).toThrow(
      knownError('UserError', 'mapping.invalid'),
    );
    expect(() => parseMapping(json, 'mapping.json')).toThrow(message);
  });
});

describe('mapHeader', () => {
  it('maps known columns, lists unknown ones and nameless ones', () => {
    const map = mapHeader(['Reference', 'City', 'Notes', '', 'files']);
    expect([...map.index]).toEqual([
      ['reference', 0],
      ['city', 1],
      ['files', 4],
    ]);
    expect(map.unknown).toEqual(['Notes']);
    expect(map.nameless).toEqual([3]);
  });

  it('refuses two columns that give one field', () => {
    expect(() => mapHeader(['city', 'City'])).toThrow(
      'the columns "city" and "City" both give city; keep one of them.',
    );
    const mapping = parseMapping({ Gemeente: 'city' }, 'm.json');
    expect(() => mapHeader(['Gemeente', 'city'], mapping)).toThrow(/"Gemeente" and "city"/);
  });
});

describe('CsvCells', () => {
  const map = mapHeader(['City', 'Notes', '', 'postal_code']);

  it('reads values and column names by field', () => {
    const cells = new CsvCells(map, ['Gent', 'x', '', '9000']);
    expect(cells.value('city')).toBe('Gent');
    expect(cells.column('city')).toBe('City');
    expect(cells.value('postal_code')).toBe('9000');
    expect(cells.value('address1')).toBeUndefined();
    expect(cells.column('address1')).toBeUndefined();
  });

  it('reads a short row as missing cells', () => {
    expect(new CsvCells(map, ['Gent']).value('postal_code')).toBeUndefined();
  });

  it('counts data past the header and in nameless columns', () => {
    expect(new CsvCells(map, ['a', 'b', '', 'd', 'e', ' ', 'f']).extra()).toBe(2);
    expect(new CsvCells(map, ['a', 'b', 'c', 'd']).namelessData()).toBe(true);
    expect(new CsvCells(map, ['a', 'b', ' ', 'd']).namelessData()).toBe(false);
  });
});

describe('ObjectCells', () => {
  it('maps keys, collects unknown keys and reports clashing ones', () => {
    const unknown = new Set<string>();
    const cells = new ObjectCells(
      { City: 'Gent', city: 'Leuven', extra: 1, files: ['a'] },
      undefined,
      unknown,
    );
    expect(cells.value('city')).toBe('Gent');
    expect(cells.column('city')).toBe('City');
    expect(cells.value('files')).toEqual(['a']);
    expect([...unknown]).toEqual(['extra']);
    expect(cells.clashes).toEqual([{ first: 'City', second: 'city', field: 'city' }]);
  });
});

describe('columnLetter', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [51, 'AZ'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ])('%d → %s', (position, letters) => {
    expect(columnLetter(position)).toBe(letters);
  });
});
