import { describe, expect, it } from 'vitest';

import { cleanInput, orderRules, validateOrder } from '../../sandbox/order-rules.js';
import { validOrder } from '../helpers/orders.js';
import { ProductList } from '../../sandbox/products.js';
import { testCatalogue } from '../helpers/catalogue.js';

const rules = orderRules(new ProductList(testCatalogue.products));

function check(body: Record<string, unknown>) {
  return validateOrder(cleanInput(body) as Record<string, unknown>, rules);
}

function errorsOf(body: Record<string, unknown>) {
  const result = check(body);
  return result.ok ? {} : result.errors;
}

describe('cleanInput (TrimStrings + ConvertEmptyStringsToNull)', () => {
  it('trims strings and turns empty ones into null, nested too', () => {
    expect(cleanInput({ a: ' x ', b: '  ', c: [{ d: '' }, ' e'], n: 3, t: true })).toEqual({
      a: 'x',
      b: null,
      c: [{ d: null }, 'e'],
      n: 3,
      t: true,
    });
  });
});

describe('orderRules', () => {
  it('accepts a complete order and stores it normalised', () => {
    const result = check(
      validOrder({ habbitable_space: '85', no_inv_mail: true, city: '  Gent ', remark: '' }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fields).toMatchObject({
      habbitable_space: 85,
      no_inv_mail: 1,
      no_contact_mail: 0,
      city: 'Gent',
      remark: null,
      inv_vat: null,
      order_products: [{ id: 'EPC', quantity: 1 }],
      breaker_boxes: null,
    });
  });

  it('lists every missing core field at once', () => {
    expect(Object.keys(errorsOf({}))).toEqual([
      'property_type',
      'address1',
      'address2',
      'city',
      'postal_code',
      'contact_name',
      'contact_language',
      'contact_email',
      'inv_mail',
      'invoice_to',
      'is_contact_owner',
      'order_products',
    ]);
  });

  it.each([
    ['property_type', 'Studio/Appartement', 'The selected property type is invalid.'],
    ['contact_language', 'de', 'The selected contact language is invalid.'],
    ['invoice_to', 'owner', 'The selected invoice to is invalid.'],
    ['is_contact_owner', 'no', 'The selected is contact owner is invalid.'],
    [
      'contact_email',
      'jan(at)example.be',
      'The contact email field must be a valid email address.',
    ],
    ['habbitable_space', 'large', 'The habbitable space field must be an integer.'],
    ['no_contact_mail', 'ja', 'The no contact mail field must be true or false.'],
    ['postal_code', 9000, 'The postal code field must be a string.'],
    ['city', 'x'.repeat(256), 'The city field must not be greater than 255 characters.'],
  ])('%s = %j: %s', (field, value, message) => {
    expect(errorsOf(validOrder({ [field]: value }))).toEqual({ [field]: [message] });
  });

  it('lets the mail flags excuse the mail addresses', () => {
    const body = validOrder({ no_contact_mail: 1, no_inv_mail: '1' });
    delete body.contact_email;
    delete body.inv_mail;
    expect(check(body).ok).toBe(true);
  });

  it('refuses unknown products and bad quantities by item', () => {
    const errors = errorsOf(
      validOrder({
        order_products: [{ id: 'NOPE', quantity: 1 }, { id: 'EPC', quantity: 0 }, { id: 'EPC' }],
      }),
    );
    expect(errors).toEqual({
      'order_products.0.id': ['The selected order_products.0.id is invalid.'],
      'order_products.1.quantity': ['The order_products.1.quantity field must be at least 1.'],
      'order_products.2.quantity': ['The order_products.2.quantity field is required.'],
    });
  });

  it('refuses an empty product list', () => {
    expect(errorsOf(validOrder({ order_products: [] }))).toEqual({
      order_products: ['The order products field is required.'],
    });
  });

  it.each([
    ['ELEC-1.1', 'breaker_boxes', 'The breaker boxes field is required.'],
    ['ELEC-1.2', 'breaker_boxes', 'The breaker boxes field is required.'],
    ['ELEC-2.1', 'breaker_boxes', 'The breaker boxes field is required.'],
    ['ASB-UNITS', 'units', 'The units field is required.'],
    ['ASB-FLOORS', 'floors', 'The floors field is required.'],
  ])('%s requires %s', (product, field, message) => {
    const body = validOrder({ order_products: [{ id: product, quantity: 1 }] });
    expect(errorsOf(body)).toEqual({ [field]: [message] });
    expect(check({ ...body, [field]: '2' }).ok).toBe(true);
  });

  it('does not require conditional fields for other products', () => {
    expect(check(validOrder({ order_products: [{ id: 'EPC', quantity: 2 }] })).ok).toBe(true);
  });

  it('checks a conditional field that is sent anyway', () => {
    expect(errorsOf(validOrder({ floors: 'two' }))).toEqual({
      floors: ['The floors field must be an integer.'],
    });
  });
});
