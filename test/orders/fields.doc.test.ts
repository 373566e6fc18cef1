import { describe, expect, it } from 'vitest';

import { CONDITIONAL_FIELDS } from '../../src/orders/catalogue.js';
import {
  CONTACT_LANGUAGES,
  INVOICE_TO,
  IS_CONTACT_OWNER,
  ORDER_FIELDS,
  PROPERTY_TYPES,
} from '../../src/orders/fields.js';
import { driftFromDoc } from '../helpers/api-doc.js';

describe("the client's field list", () => {
  it('names every field of the documentation, with its kind, values and conditions, and no other', () => {
    const clientFields = {
      fields: ORDER_FIELDS,
      enumerations: {
        property_type: PROPERTY_TYPES,
        contact_language: CONTACT_LANGUAGES,
        invoice_to: INVOICE_TO,
        is_contact_owner: IS_CONTACT_OWNER,
      },
      requiredByCategory: CONDITIONAL_FIELDS,
    };
    expect(driftFromDoc(clientFields)).toEqual([]);
  });
});
