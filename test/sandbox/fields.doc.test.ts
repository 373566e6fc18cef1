import { describe, expect, it } from 'vitest';

import { ENUMERATED_FIELDS, ORDER_FIELDS, REQUIRED_BY_CATEGORY } from '../../sandbox/fields.js';
import { documentedFields, driftFromDoc, type FieldList } from '../helpers/api-doc.js';

const sandboxFields: FieldList = {
  fields: ORDER_FIELDS,
  enumerations: ENUMERATED_FIELDS,
  requiredByCategory: REQUIRED_BY_CATEGORY,
};

/** The sandbox's list with one field changed, as a slip in sandbox/fields.ts would change it. */
function withField(name: string, changed: readonly [string, string]): FieldList {
  return {
    ...sandboxFields,
    fields: ORDER_FIELDS.map((field) => (field[0] === name ? changed : field)),
  };
}

describe("the sandbox's field list", () => {
  it('names every field of the documentation, with its kind, values and conditions, and no other', () => {
    expect(driftFromDoc(sandboxFields)).toEqual([]);
  });

  it('is read from the documentation, not from the client', () => {
    const doc = documentedFields();
    expect(doc).toHaveLength(ORDER_FIELDS.length);
    expect(doc.find((field) => field.name === 'breaker_boxes')).toEqual({
      name: 'breaker_boxes',
      kind: 'integer',
      values: null,
      categories: ['1.1', '1.2', '2.1'],
    });
  });

  it('would fail on a misspelt field, a wrong kind, a missing value or category', () => {
    expect(driftFromDoc(withField('habbitable_space', ['habitable_space', 'integer']))).toEqual([
      'habbitable_space: documented, not listed',
      'habitable_space: listed, not documented',
    ]);
    expect(driftFromDoc(withField('no_inv_mail', ['no_inv_mail', 'string']))).toEqual([
      'no_inv_mail: listed as string, documented as flag',
    ]);
    const fewerValues = {
      ...sandboxFields,
      enumerations: { ...ENUMERATED_FIELDS, contact_language: ['nl', 'fr'] },
    };
    expect(driftFromDoc(fewerValues)).toHaveLength(1);
    const fewerCategories = {
      ...sandboxFields,
      requiredByCategory: { ...REQUIRED_BY_CATEGORY, breaker_boxes: ['1.1'] },
    };
    expect(driftFromDoc(fewerCategories)).toHaveLength(1);
  });
});
